// Determinism of a whole raw_msg run (DESIGN.md: bit-for-bit for a given spec and
// seed): two systems built from the same spec run the same traffic, with link errors
// and retries, across a mesh, and must agree on every completion time, every NIC's
// cycle count and the network's statistics.
#include <gtest/gtest.h>

#include "niclab/fw/hw.h"
#include "raw_test_support.hpp"

namespace niclab::test {
namespace {

struct Observed {
    raw::Stream stream;
    std::vector<uint64_t> cycles, instret;
    net::NetworkStats net;
    Time end;
};

Observed run_once(uint64_t seed) {
    system::System sys(raw::spec_for(8, {{"kind", "mesh"}, {"dims", {2, 2, 2}}}, seed,
                                     {{"net.bit_errors_per_1e15", int64_t(10'000'000'000)}}));
    Observed o;
    o.stream = raw::stream(sys, 0, 7, 6, 20000);
    for (size_t n = 0; n < sys.node_count(); ++n) {
        o.cycles.push_back(sys.nic(n).cpu().cycles());
        o.instret.push_back(sys.nic(n).cpu().instret());
    }
    o.net = sys.network()->stats();
    o.end = sys.now();
    return o;
}

TEST(RawMsgDeterminism, SameSpecAndSeedGiveIdenticalRuns) {
    Observed a = run_once(3), b = run_once(3);
    ASSERT_EQ(a.stream.sent.size(), b.stream.sent.size());
    ASSERT_EQ(a.stream.received.size(), b.stream.received.size());
    for (size_t i = 0; i < a.stream.sent.size(); ++i) {
        EXPECT_EQ(a.stream.sent[i].when, b.stream.sent[i].when) << "send " << i;
        EXPECT_EQ(a.stream.sent[i].tag, b.stream.sent[i].tag);
    }
    for (size_t i = 0; i < a.stream.received.size(); ++i) {
        EXPECT_EQ(a.stream.received[i].when, b.stream.received[i].when) << "receive " << i;
        EXPECT_EQ(a.stream.received[i].tag, b.stream.received[i].tag);
        EXPECT_EQ(a.stream.received[i].status, NICLAB_DMA_OK);
    }
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.instret, b.instret);
    EXPECT_EQ(a.end, b.end);
    EXPECT_EQ(a.net.packets_injected, b.net.packets_injected);
    EXPECT_EQ(a.net.packets_delivered, b.net.packets_delivered);
    EXPECT_EQ(a.net.bytes_delivered, b.net.bytes_delivered);
    EXPECT_EQ(a.net.injections_refused, b.net.injections_refused);
    EXPECT_EQ(a.net.deliveries_refused, b.net.deliveries_refused);
    EXPECT_EQ(a.net.retries, b.net.retries);
    EXPECT_EQ(a.net.max_buffer_occupancy, b.net.max_buffer_occupancy);
    EXPECT_EQ(a.net.max_queueing, b.net.max_queueing);
    EXPECT_EQ(a.net.latency_ns.count(), b.net.latency_ns.count());
    EXPECT_EQ(a.net.latency_ns.mean(), b.net.latency_ns.mean());
    EXPECT_GT(a.net.retries, 0u) << "the runs did exercise the random draws";
}

TEST(RawMsgDeterminism, ADifferentSeedChangesTheRetriesButNotTheData) {
    Observed a = run_once(3), b = run_once(4);
    EXPECT_NE(a.net.retries, b.net.retries);
    for (size_t i = 0; i < b.stream.intact.size(); ++i) EXPECT_TRUE(b.stream.intact[i]) << i;
}

}  // namespace
}  // namespace niclab::test
