// Reading a live NIC's ring through the back door: no simulated time, oldest first,
// ring wrap, and the ELF/build-id check.
#include "niclab/trace/decoder.hpp"
#include "niclab/nic/trace_ring.hpp"
#include "trace_test_support.hpp"

namespace niclab::trace::test {
namespace {

using nic::find_ring;
using nic::read_trace;
using nic::RingInfo;

TEST(RingReader, ReadsWithoutDisturbingTheNic) {
    auto sys = one_node();
    nic::EmbeddedNic& nic = sys->nic(0);
    nic.load_firmware(example("trace_demo"));
    sys->run_until(Time::us(40));
    const uint64_t cycles = nic.cpu().cycles();
    const Time now = sys->now();
    const Trace t = read_trace(nic);
    EXPECT_EQ(nic.cpu().cycles(), cycles);
    EXPECT_EQ(sys->now(), now);

    ASSERT_GT(t.records.size(), 10u);
    EXPECT_EQ(t.header.total_count, t.records.size());
    EXPECT_EQ(t.lost(), 0u);
    EXPECT_EQ(t.header.flags, kFlagHasBase | kFlagHasEpoch);
    EXPECT_EQ(t.header.build_id, nic.image()->build_id());
    EXPECT_EQ(t.header.clock_hz, 500'000'000u);
    const auto c = t.unwrapped_cycles();
    for (size_t i = 1; i < c.size(); ++i) EXPECT_LT(c[i - 1], c[i]);
    EXPECT_LE(c.back(), cycles);  // mcycle = core cycles for a firmware that never writes it

    const auto records = decode(t, elf_lookup(nic.image()->path()));
    EXPECT_EQ(records.front().function, "mainloop");
    EXPECT_EQ(records.front().value, 24);
    EXPECT_EQ(records.front().file, "trace_demo.c");
    for (const auto& r : records)
        EXPECT_TRUE(r.function == "mainloop" || r.function == "rx_complete" || r.function == "handle_command" ||
                    r.function == "goaccel_tx_command" || r.function == "resolve_source")
            << r.function;
}

TEST(RingReader, RecordsAreOnTheGlobalTimeAxis) {
    // A firmware loaded 13 us into the run: its cycle counter starts there, and a
    // record's global time is that moment plus its cycles at the core's clock.
    auto sys = one_node();
    sys->run_until(Time::us(13));
    nic::EmbeddedNic& nic = sys->nic(0);
    const nic::BootReport boot = nic.load_firmware(example("trace_demo"));
    sys->run_until(Time::us(40));
    const Trace t = read_trace(nic);
    EXPECT_EQ(t.header.epoch_ps, boot.started.ps());
    EXPECT_GE(boot.started, Time::us(13));
    EXPECT_EQ(t.header.period_ps, 2000u);
    const auto records = decode(t, nullptr);
    ASSERT_FALSE(records.empty());
    for (const auto& r : records) {
        ASSERT_TRUE(r.sim_time_ns.has_value());
        EXPECT_DOUBLE_EQ(*r.sim_time_ns, boot.started.as_ns() + double(r.cycles) * 2.0);
    }
    EXPECT_LE(*records.back().sim_time_ns, sys->now().as_ns());
    EXPECT_GT(*records.front().sim_time_ns, boot.started.as_ns());
}

TEST(RingReader, WrapKeepsTheNewestRecordsOldestFirst) {
    auto sys = one_node();
    nic::EmbeddedNic& nic = sys->nic(0);
    nic.load_firmware(example("trace_demo"));
    sys->run_until(Time::us(300));
    const Trace before = read_trace(nic);
    ASSERT_LT(before.header.total_count, 1024u);
    sys->run_until(Time::us(700));
    const Trace after = read_trace(nic);
    const uint64_t total = after.header.total_count;
    ASSERT_GT(total, 1024u) << "run longer: the ring did not wrap";
    ASSERT_LT(total - 1024, before.header.total_count) << "run shorter: nothing left to compare";
    EXPECT_EQ(after.records.size(), 1024u);
    EXPECT_EQ(after.lost(), total - 1024);
    EXPECT_EQ(after.header.flags, kFlagHasBase | kFlagWrapped | kFlagHasEpoch);
    // after.records[i] is record number total - 1024 + i; the ones `before` saw too match.
    const uint64_t first = total - 1024;
    for (uint64_t n = first; n < before.header.total_count; ++n)
        ASSERT_EQ(after.records[n - first], before.records[n]) << "record " << n;
    EXPECT_EQ(after.unwrapped_cycles().front(), before.unwrapped_cycles()[first]);
    const auto c = after.unwrapped_cycles();
    for (size_t i = 1; i < c.size(); ++i) ASSERT_LT(c[i - 1], c[i]);
}

TEST(RingReader, FirmwareWithoutTracingIsNamed) {
    auto sys = one_node();
    nic::EmbeddedNic& nic = sys->nic(0);
    EXPECT_THROW(read_trace(nic), TraceError);  // nothing loaded
    nic.load_firmware(example("hello"));
    try {
        read_trace(nic);
        FAIL();
    } catch (const TraceError& e) {
        EXPECT_NE(std::string(e.what()).find("TRACE"), std::string::npos) << e.what();
    }
}

TEST(RingReader, ElfOfAnotherBuildIsRefused) {
    auto sys = one_node();
    nic::EmbeddedNic& nic = sys->nic(0);
    nic.load_firmware(example("trace_demo"));
    sys->run_until(Time::us(20));
    const Trace t = read_trace(nic);
    const auto other = fw::FirmwareImage::load(example("hello"));
    EXPECT_THROW(check_build_id(t, other.build_id(), "hello.elf"), TraceBuildIdMismatch);
    EXPECT_NO_THROW(check_build_id(t, nic.image()->build_id(), "trace_demo.elf"));
}

}  // namespace
}  // namespace niclab::trace::test
