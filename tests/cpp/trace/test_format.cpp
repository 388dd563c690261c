// Decoding and the tracedump text: seed 000 Figure 2 reproduced from its own records
// with a symbol table built from the figure (function starts = PC - offset).
#include <map>

#include "niclab/trace/decoder.hpp"
#include "trace_test_support.hpp"

namespace niclab::trace::test {
namespace {

// Function start addresses implied by Figure 2 (e.g. 0xffff0c4c - 0x14 = mainloop).
fw::SourceLocation figure2_lookup(uint32_t pc) {
    static const std::map<uint32_t, std::string> starts = {
        {0xffff0c38, "mainloop"},           {0xffff1284, "handle_command"},
        {0xffff20f4, "resolve_source"},     {0xffff2494, "goaccel_tx_command"},
        {0xffff3120, "rx_complete"}};
    fw::SourceLocation loc;
    auto it = starts.upper_bound(pc);
    if (it == starts.begin()) return loc;
    --it;
    if (pc - it->first >= 0x100) return loc;  // past the end of the function
    loc.function = it->second;
    loc.offset = pc - it->first;
    loc.file = "portals.c";
    loc.line = int(pc & 0xff);
    return loc;
}

// Written by hand from seed 000 Figure 2 (the last line is our eleventh record).
const char* const kFigure2 =
    "e4681e8b: 24: 18ff0c4c mainloop+0014 (178 ns)\n"
    "e4681ee4: 99: 63ff313c rx_complete+001c (84 ns)\n"
    "e4681f0e: 0: 00ff318c rx_complete+006c (24 ns)\n"
    "e4681f1a: 0: 00ff3198 rx_complete+0078 (374 ns)\n"
    "e4681fd5: 5: 05ff12b4 handle_command+0030 (156 ns)\n"
    "e4682023: 0: 00ff24b0 goaccel_tx_command+001c (80 ns)\n"
    "e468204b: 0: 00ff24c0 goaccel_tx_command+002c (40 ns)\n"
    "e468205f: 0: 00ff2124 resolve_source+0030 (18 ns)\n"
    "e4682068: 0: 00ff212c resolve_source+0038 (102 ns)\n"
    "e468209b: 0: 00ff2504 goaccel_tx_command+0070 (290 ns)\n"
    "e468212c: 0: 00ff2510 goaccel_tx_command+007c\n";

TEST(TraceFormat, Figure2LineForLine) {
    const auto records = decode(figure2_trace(), figure2_lookup);
    EXPECT_EQ(format_text(records), kFigure2);
}

TEST(TraceFormat, DecodedFieldsAndBothDeltas) {
    const auto r = decode(figure2_trace(), figure2_lookup);
    ASSERT_EQ(r.size(), 11u);
    EXPECT_EQ(r[0].value, 24);
    EXPECT_EQ(r[0].pc, 0xffff0c4cu);
    EXPECT_EQ(r[0].function, "mainloop");
    EXPECT_EQ(r[0].offset, 0x14u);
    EXPECT_EQ(r[0].cycles, 0xe4681e8bu);  // no 64-bit base: the first timestamp as is
    EXPECT_DOUBLE_EQ(r[0].time_ns, 0xe4681e8b * 2.0);
    EXPECT_FALSE(r[0].delta_prev_ns.has_value());
    EXPECT_DOUBLE_EQ(*r[0].delta_next_ns, 178.0);
    EXPECT_DOUBLE_EQ(*r[1].delta_prev_ns, 178.0);
    EXPECT_DOUBLE_EQ(*r[1].delta_next_ns, 84.0);
    EXPECT_FALSE(r[10].delta_next_ns.has_value());
    EXPECT_DOUBLE_EQ(*r[10].delta_prev_ns, 290.0);
}

TEST(TraceFormat, FiltersKeepTheWholeTraceDeltas) {
    const auto records = decode(figure2_trace(), figure2_lookup);
    FormatOptions by_function;
    by_function.function = "resolve_source";
    EXPECT_EQ(format_text(records, by_function),
              "e468205f: 0: 00ff2124 resolve_source+0030 (18 ns)\n"
              "e4682068: 0: 00ff212c resolve_source+0038 (102 ns)\n");
    FormatOptions by_value;
    by_value.value = 99;
    EXPECT_EQ(format_text(records, by_value), "e4681ee4: 99: 63ff313c rx_complete+001c (84 ns)\n");
    FormatOptions last;
    last.last = 2;
    last.source = true;
    EXPECT_EQ(format_text(records, last),
              "e468209b: 0: 00ff2504 goaccel_tx_command+0070 (290 ns) portals.c:0\n"  // line of pc - 4
              "e468212c: 0: 00ff2510 goaccel_tx_command+007c portals.c:12\n");
}

TEST(TraceFormat, UnknownAddressShowsThePc) {
    Trace t = figure2_trace();
    t.records = {RawRecord::make(0x10, 7, 0xfff40000)};
    const auto r = decode(t, figure2_lookup);
    EXPECT_EQ(format_record(r[0]), "00000010: 7: 07f40000 0xfff40000");
    EXPECT_EQ(format_record(decode(t, nullptr)[0]), "00000010: 7: 07f40000 0xfff40000");
}

TEST(TraceFormat, DeltasFollowTheClock) {
    Trace t = figure2_trace();
    t.header.clock_hz = 400'000'000;  // 2.5 ns per cycle
    const auto r = decode(t, figure2_lookup);
    EXPECT_DOUBLE_EQ(*r[0].delta_next_ns, 89 * 2.5);
    EXPECT_EQ(format_record(r[0]), "e4681e8b: 24: 18ff0c4c mainloop+0014 (223 ns)");  // 222.5 rounds away from zero
}

TEST(TraceFormat, MismatchedBuildIdIsRefusedNamingBoth) {
    const Trace t = figure2_trace();
    EXPECT_NO_THROW(check_build_id(t, "figure2", "x.elf"));
    try {
        check_build_id(t, "0badc0de", "other.elf");
        FAIL() << "no TraceBuildIdMismatch";
    } catch (const TraceBuildIdMismatch& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("figure2"), std::string::npos) << what;
        EXPECT_NE(what.find("0badc0de"), std::string::npos) << what;
        EXPECT_NE(what.find("other.elf"), std::string::npos) << what;
        EXPECT_EQ(e.trace_build_id(), "figure2");
        EXPECT_EQ(e.elf_build_id(), "0badc0de");
    }
}

}  // namespace
}  // namespace niclab::trace::test
