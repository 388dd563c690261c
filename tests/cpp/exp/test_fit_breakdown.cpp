// The critical-path breakdown on hand-made activity logs: the path follows the last busy
// part on a node, crosses to the sender at a packet, and every picosecond goes to one
// part (pure logic, hence in the fit_tests binary).
#include <gtest/gtest.h>

#include "niclab/exp/breakdown.hpp"

namespace niclab::exp {
namespace {

using sim::Activity;

Time ns(int64_t v) { return Time::ns(v); }

const BreakdownPart& part(const Breakdown& b, const std::string& name, int64_t node, const std::string& detail = "") {
    for (const auto& p : b.parts)
        if (p.part == name && p.node == node && p.detail == detail) return p;
    ADD_FAILURE() << "no part " << name << " on node " << node << " " << detail;
    static BreakdownPart none;
    return none;
}

Time sum(const Breakdown& b) {
    Time t{};
    for (const auto& p : b.parts) t += p.time;
    return t;
}

TEST(Breakdown, FollowsTheMessageAcrossTheNetwork) {
    // Node 0's library sends (0-10), its firmware pushes the packet (10-30), the packet
    // crosses (30-45), node 1's firmware takes it in (45-60) and its host is interrupted
    // (60-100). Meanwhile node 0's host does unrelated work (35-90): beside the path.
    sim::ActivityLog log;
    const uint32_t fn = log.intern("tx_command");
    log.record(Activity::HostLibrary, 0, ns(0), ns(10));
    log.record(Activity::Firmware, 0, ns(10), ns(30), fn);
    log.record(Activity::Network, 1, ns(30), ns(45), 0, /*peer=*/0);
    log.record(Activity::Firmware, 1, ns(45), ns(60));
    log.record(Activity::HostInterruptEntry, 1, ns(60), ns(100));
    log.record(Activity::HostLibrary, 0, ns(35), ns(90));
    const Breakdown b = break_down(log, ns(0), ns(100), 1);
    EXPECT_EQ(sum(b), ns(100));
    EXPECT_EQ(part(b, "host: interrupt entry", 1).time, ns(40));
    EXPECT_EQ(part(b, "firmware", 1).time, ns(15));
    EXPECT_EQ(part(b, "network: wire and switches", 1).time, ns(15));
    EXPECT_EQ(part(b, "firmware", 0, "tx_command").time, ns(20));
    // Node 0's library: 10 ns on the path, 65 busy in all (10 + the 55 beside it).
    EXPECT_EQ(part(b, "host: library", 0).time, ns(10));
    EXPECT_EQ(part(b, "host: library", 0).busy, ns(65));
}

TEST(Breakdown, PollingThatFoundNothingIsWaiting) {
    // Node 1 spins on its NIC's status (PIO reads 10-20, 20-30, 30-40, each a polling
    // span that found nothing) while the packet crosses (15-35); the read at 40-50 finds
    // it and the library takes it (50-60). Without the polling spans the reads would be
    // the path back to the start. A posted write the first poll pushed out (10-14) is
    // not the poll's own work: it stays a candidate, but the network ends later.
    sim::ActivityLog log;
    const uint32_t read = log.intern("read"), write = log.intern("write");
    log.record(Activity::HostLibrary, 1, ns(0), ns(10));
    for (int64_t t : {10, 20, 30}) {
        log.record(Activity::BusPio, 1, ns(t), ns(t + 10), read);
        log.record(Activity::HostPolling, 1, ns(t), ns(t + 10));
    }
    log.record(Activity::BusPio, 1, ns(10), ns(14), write);
    log.record(Activity::Network, 1, ns(15), ns(35), 0, /*peer=*/0);
    log.record(Activity::Firmware, 0, ns(5), ns(15));
    log.record(Activity::BusPio, 1, ns(40), ns(50), read);
    log.record(Activity::HostLibrary, 1, ns(50), ns(60));
    const Breakdown b = break_down(log, ns(0), ns(60), 1);
    EXPECT_EQ(sum(b), ns(60));
    EXPECT_EQ(part(b, "bus: PIO", 1, "read").time, ns(10));  // the read that found the message
    EXPECT_EQ(part(b, "bus: PIO", 1, "read").busy, ns(40));
    EXPECT_EQ(part(b, "bus: PIO", 1, "write").time, ns(0));
    EXPECT_EQ(part(b, "host: polling (waiting)", 1).time, ns(0));
    EXPECT_EQ(part(b, "host: polling (waiting)", 1).busy, ns(30));
    EXPECT_EQ(part(b, "network: wire and switches", 1).time, ns(20));
    EXPECT_EQ(part(b, "firmware", 0).time, ns(10));
    EXPECT_EQ(part(b, "waiting", -1).time, ns(5 + 5));  // 35-40 at node 1, 0-5 at node 0
}

TEST(Breakdown, GapsAreWaitingAndTheWindowClipsSpans) {
    sim::ActivityLog log;
    log.record(Activity::HostLibrary, 0, ns(0), ns(30));    // started before the window
    log.record(Activity::BusDmaRead, 0, ns(50), ns(70));
    log.record(Activity::Firmware, 0, ns(55), ns(70));      // ends with the DMA: the DMA is preferred
    log.record(Activity::HostSyscall, 0, ns(90), ns(140));  // runs past the window
    const Breakdown b = break_down(log, ns(20), ns(120), 0);
    EXPECT_EQ(sum(b), ns(100));
    EXPECT_EQ(part(b, "host: system call", 0).time, ns(30));
    EXPECT_EQ(part(b, "waiting", -1).time, ns(20 + 20));  // 70-90 and 30-50
    EXPECT_EQ(part(b, "bus: DMA read", 0).time, ns(20));
    EXPECT_EQ(part(b, "firmware", 0).time, Time{});
    EXPECT_EQ(part(b, "firmware", 0).busy, ns(15));
    EXPECT_EQ(part(b, "host: library", 0).time, ns(10));
}

TEST(Breakdown, NothingBusyIsAllWaiting) {
    sim::ActivityLog log;
    const Breakdown b = break_down(log, ns(5), ns(25), 0);
    ASSERT_EQ(b.parts.size(), 1u);
    EXPECT_EQ(b.parts[0].part, "waiting");
    EXPECT_EQ(b.parts[0].time, ns(20));
}

}  // namespace
}  // namespace niclab::exp
