// RDMA one-way against exchange (seed 002 §6.1.2, Fig. 6): the mechanism behind "the
// aggregate bandwidth actually decreases due to PCI bus contentions" (L226). In an exchange
// each node's one PCI bus carries its TX DMA reads and its RX DMA writes, so bus sharing
// alone makes the aggregate equal one-way; it falls below only because a read burst after a
// write burst waits for host memory again (bus::PciParams::dma_write_ends_read_prefetch).
// These tests pin that behaviour, never the paper's numbers.
#include <gtest/gtest.h>

#include "test_jam_support.hpp"

namespace niclab::startx::test {
namespace {

constexpr uint64_t kN = 256 * 1024;
constexpr int kRounds = 2;

struct Outcome {
    double mb_s = 0;           // one-way: S / L_one-way; exchange: 2S / L_exchange
    bus::PciCounters a_bus;    // node 0's bus
};

bus::PciParams pci(bool drops) {
    bus::PciParams p;
    p.dma_write_ends_read_prefetch = drops;
    return p;
}

// `exchange`: both nodes send S and then receive S, kRounds times (Fig. 6(b)); otherwise a
// ping-pong (Fig. 6(a)).
Outcome run(bool drops, bool exchange) {
    JamPair t(pci(drops));
    auto ta = t.transport("rdma", true), tb = t.transport("rdma", false);
    Time took;
    t.spawn(t.a, "a", [&](host::ProcessContext& ctx) {
        ta->open(ctx, kN);
        const Time t0 = ctx.now();
        for (int i = 0; i < kRounds; ++i) {
            ta->prepare_send(ctx, kN);
            ta->send(ctx, 1);
            EXPECT_EQ(ta->recv(ctx).bytes, kN);
        }
        ta->wait_sends(ctx);
        took = ctx.now() - t0;
    });
    t.spawn(t.b, "b", [&](host::ProcessContext& ctx) {
        tb->open(ctx, kN);
        for (int i = 0; i < kRounds; ++i) {
            if (exchange) {
                tb->prepare_send(ctx, kN);
                tb->send(ctx, 2);
                EXPECT_EQ(tb->recv(ctx).bytes, kN);
            } else {
                EXPECT_EQ(tb->recv(ctx).bytes, kN);
                tb->prepare_send(ctx, kN);
                tb->send(ctx, 2);
            }
        }
        tb->wait_sends(ctx);
    });
    t.run(Time::ms(200));
    for (auto& p : t.procs) EXPECT_TRUE(p->done()) << p->name();
    Outcome o;
    const double per_us = took.as_us() / (exchange ? kRounds : 2 * kRounds);
    o.mb_s = (exchange ? 2.0 : 1.0) * double(kN) / per_us;
    o.a_bus = t.a.bus.counters();
    return o;
}

TEST(RdmaExchange, BusSharingAloneGivesTheOneWayAggregate) {
    const Outcome one = run(false, false), both = run(false, true);
    EXPECT_NEAR(both.mb_s / one.mb_s, 1.0, 0.03) << one.mb_s << " vs " << both.mb_s;
    EXPECT_EQ(both.a_bus.prefetch_discards, 0u);
}

TEST(RdmaExchange, DroppedPrefetchMakesTheAggregateFallBelowOneWay) {
    const Outcome one = run(true, false), both = run(true, true);
    const Outcome one_kept = run(false, false);
    // One way, a node's bus carries reads or writes, never both at once: the flag is moot.
    EXPECT_DOUBLE_EQ(one.mb_s, one_kept.mb_s);
    EXPECT_LT(both.mb_s, one.mb_s * 0.95) << one.mb_s << " vs " << both.mb_s;
    // Why: read bursts that follow write bursts fetch from host memory again.
    EXPECT_GT(both.a_bus.prefetch_discards, 1000u);
    EXPECT_GT(both.a_bus.dma_read_fetches, 100 * one.a_bus.dma_read_fetches);
}

}  // namespace
}  // namespace niclab::startx::test
