// Trace files (traces/FORMAT.md): exact round trip; truncation and corruption raise
// TraceFormatError naming the byte offset.
#include <fstream>

#include "niclab/trace/trace_file.hpp"
#include "niclab/trace/trace_json.hpp"
#include "trace_test_support.hpp"

namespace niclab::trace::test {
namespace {

Trace sample() {
    Trace t = figure2_trace();
    t.header.build_id = "0123456789abcdef0123456789abcdef01234567";  // a SHA-1 build id: 40 hex digits
    t.header.node_id = 3;
    t.header.total_count = 4000;
    t.header.flags = kFlagHasBase | kFlagWrapped | kFlagHasEpoch;
    t.header.first_cycles = 0x7'e4681e8bull;
    t.header.epoch_ps = 27'000'000;  // the core left reset 27 us into the run
    t.header.period_ps = 2000;       // 500 MHz
    return t;
}

// Offset of the stored checksum in a file of `t`.
size_t crc_offset(const Trace& t) { return 80 + 40 + t.records.size() * 8; }

void fix_crc(std::vector<uint8_t>& b) {
    const uint32_t c = crc32({b.data(), b.size() - 4});
    for (int i = 0; i < 4; ++i) b[b.size() - 4 + i] = uint8_t(c >> (8 * i));
}

uint64_t offset_of_error(const std::vector<uint8_t>& bytes) {
    try {
        from_bytes(bytes);
    } catch (const TraceFormatError& e) {
        EXPECT_NE(std::string(e.what()).find("byte offset " + std::to_string(e.offset())), std::string::npos) << e.what();
        return e.offset();
    }
    ADD_FAILURE() << "no TraceFormatError";
    return ~0ull;
}

TEST(TraceFile, RoundTripIsExact) {
    const Trace t = sample();
    const auto bytes = to_bytes(t);
    EXPECT_EQ(bytes.size(), crc_offset(t) + 4);
    EXPECT_EQ(from_bytes(bytes), t);
    EXPECT_EQ(to_bytes(from_bytes(bytes)), bytes);

    TempDir dir;
    save_trace(t, dir.path() / "x.trace");
    EXPECT_EQ(load_trace(dir.path() / "x.trace"), t);

    Trace empty;  // no records, no base
    EXPECT_EQ(from_bytes(to_bytes(empty)), empty);
}

TEST(TraceFile, HeaderFieldsAreLittleEndianAtDocumentedOffsets) {
    const auto b = to_bytes(sample());
    EXPECT_EQ(std::string(b.begin(), b.begin() + 8), "NICTRACE");
    EXPECT_EQ(b[8], 2);                          // version
    EXPECT_EQ(b[10] | b[11] << 8, 80 + 40);      // header bytes
    EXPECT_EQ(b[12], 7);                         // flags
    EXPECT_EQ(b[16] | b[17] << 8 | b[18] << 16 | b[19] << 24, 500'000'000);  // clock, Hz
    EXPECT_EQ(b[27], 0xFF);                      // SRAM cached base 0xFFFA0000
    EXPECT_EQ(b[28], 3);                         // node id
    EXPECT_EQ(b[40], 11);                        // record count
    EXPECT_EQ(b[52], 7);                         // first_cycles bits 32..39
    EXPECT_EQ(b[56], 40);                        // build id length
    EXPECT_EQ(b[64] | b[65] << 8 | b[66] << 16 | b[67] << 24, 27'000'000);  // epoch, ps
    EXPECT_EQ(b[72] | b[73] << 8, 2000);         // core clock period, ps
    EXPECT_EQ(b[80], '0');
    // First record: timestamp then word, little-endian.
    EXPECT_EQ(b[120], 0x8b);
    EXPECT_EQ(b[123], 0xe4);
    EXPECT_EQ(b[124], 0x4c);
    EXPECT_EQ(b[127], 0x18);
}

TEST(TraceFile, TruncationNamesWhereTheFileEnds) {
    const Trace t = sample();
    const auto full = to_bytes(t);
    for (size_t cut : {size_t(0), size_t(5), size_t(8), size_t(63), size_t(64), size_t(79), size_t(80), size_t(104),
                       size_t(120), size_t(124), size_t(150), crc_offset(t), full.size() - 1}) {
        std::vector<uint8_t> b(full.begin(), full.begin() + long(cut));
        EXPECT_EQ(offset_of_error(b), cut) << "cut at " << cut;
    }
}

TEST(TraceFile, CorruptionNamesTheOffset) {
    const Trace t = sample();
    const auto good = to_bytes(t);
    struct Case {
        size_t at;
        uint8_t value;
        uint64_t expected;
        bool fix;
    };
    const Case cases[] = {
        {0, 'X', 0, false},           // magic
        {3, 'x', 3, false},
        {8, 3, 8, false},             // version
        {10, 72, 10, false},          // header size disagrees with build id length
        {13, 1, 12, false},           // unknown flag bit
        {16, 0, 16, true},            // clock 0 Hz (all of its bytes zero: see below)
        {60, 1, 60, false},           // reserved
        {86, 0x01, 86, false},        // build id byte not printable
        {72, 0, 72, true},            // the epoch flag with a zero clock period (see below)
        {150, 0x55, crc_offset(t), false},  // a record byte flipped: checksum
        {40, 12, crc_offset(t), false},     // record count too large for the data
        {48, 0x8c, 48, true},         // first_cycles no longer matches record 0
        {32, 5, 32, true},            // total count below the record count
    };
    for (const Case& c : cases) {
        auto b = good;
        b[c.at] = c.value;
        if (c.at == 16)
            for (int i = 16; i < 24; ++i) b[i] = 0;
        if (c.at == 32) b[33] = 0;
        if (c.at == 72) b[73] = 0;
        if (c.at == 40) {  // claim more records: the file is too short for them
            EXPECT_EQ(offset_of_error(b), b.size()) << "at " << c.at;
            continue;
        }
        if (c.fix) fix_crc(b);
        EXPECT_EQ(offset_of_error(b), c.expected) << "byte " << c.at;
    }
    auto longer = good;
    longer.push_back(0);
    EXPECT_EQ(offset_of_error(longer), good.size());
    auto unwrapped = good;  // the wrapped flag says records were lost, the counts say not
    unwrapped[32] = 11;
    unwrapped[33] = 0;
    fix_crc(unwrapped);
    EXPECT_EQ(offset_of_error(unwrapped), 12u);
}

TEST(TraceFile, GlobalTimeOfARecord) {
    const Trace t = sample();
    ASSERT_TRUE(t.has_epoch());
    // 27 us after the run began the core's cycle counter was 0; cycle 500 is 1 us later.
    EXPECT_EQ(t.sim_time_ps(500), 28'000'000);
}

TEST(TraceFile, VersionOneFilesAreStillRead) {
    // A version-1 file: the 64-byte fixed header, no time axis.
    Trace t = sample();
    t.header.flags &= ~kFlagHasEpoch;
    t.header.epoch_ps = 0;
    t.header.period_ps = 0;
    auto v2 = to_bytes(t);
    std::vector<uint8_t> v1(v2.begin(), v2.begin() + 64);
    v1[8] = 1;
    v1[10] = 64 + 40;
    v1.insert(v1.end(), v2.begin() + 80, v2.end());
    fix_crc(v1);
    const Trace back = from_bytes(v1);
    EXPECT_EQ(back, t);
    EXPECT_FALSE(back.has_epoch());
    v1[12] |= kFlagHasEpoch;  // a version-1 header has nowhere to keep the epoch
    fix_crc(v1);
    EXPECT_EQ(offset_of_error(v1), 12u);
}

TEST(TraceJson, RoundTripIsExactAndChecked) {
    const Trace t = sample();
    EXPECT_EQ(from_json(to_json(t)), t);
    auto j = to_json(t);
    j.erase("period_ps");
    EXPECT_THROW(
        {
            try {
                from_json(j);
            } catch (const TraceError& e) {
                EXPECT_NE(std::string(e.what()).find("'period_ps'"), std::string::npos) << e.what();
                throw;
            }
        },
        TraceError);
    j = to_json(t);
    j["first_cycles"] = 5;  // no longer record 0's timestamp: what a file reader refuses
    EXPECT_THROW(from_json(j), TraceError);
    j = to_json(t);
    j["records"][2] = {1, -3};
    EXPECT_THROW(from_json(j), TraceError);
}

TEST(TraceFile, LoadNamesTheFile) {
    TempDir dir;
    const auto path = dir.path() / "cut.trace";
    auto b = to_bytes(sample());
    b.resize(100);
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), long(b.size()));
    try {
        load_trace(path);
        FAIL();
    } catch (const TraceFormatError& e) {
        EXPECT_EQ(e.offset(), 100u);
        EXPECT_EQ(std::string(e.what()).rfind(path.string() + ": truncated", 0), 0u) << e.what();
    }
    EXPECT_THROW(load_trace(dir.path() / "missing.trace"), TraceError);
}

}  // namespace
}  // namespace niclab::trace::test
