// A Portals put ping-pong between two SeaStar nodes (host library, generic-mode driver,
// C Portals firmware, DMA, network) allocates nothing in steady state: every queue and
// map on a message's path has grown to what it holds at once by the end of the warm-up.
// This binary replaces the global operator new with a counting one (counting_new.hpp);
// the ping side counts from its warm-up's end to its last round trip, so everything the
// simulation does in between - both nodes, the network, the kernel - is counted.
#include <gtest/gtest.h>

#include "counting_new.hpp"
#include "portals_test_support.hpp"

namespace niclab::test::ptl {
namespace {

// Beyond the firmware's RX pendings (PTL_RX_PENDINGS, 1018), which it takes in turn:
// each one's upper pending in host memory is written for the first time in the warm-up,
// and host memory allocates a page when first written (host_memory.hpp).
constexpr int kWarmup = 1100;
constexpr int kCounted = 100;
constexpr uint64_t kIn = 0x200000, kOut = 0x100000;

struct Counts {
    size_t warmup = 0;   // allocations during the warm-up (the counter works)
    size_t counted = 0;  // after it
};

// `bytes`-byte puts answered by puts, with or without acknowledgements. Every put
// carries the sender's pattern; the receiver's buffer must hold it afterwards.
Counts ping_pong(uint32_t bytes, ptl_ack_req_t ack) {
    Cluster c(portals_spec(2));
    Counts counts;
    for (uint32_t node = 0; node < 2; ++node) c.sys.host_memory(node).write(kOut, pattern(bytes, node + 1));
    for (uint32_t node = 0; node < 2; ++node) {
        c.spawn(node, node == 0 ? "ping" : "pong", [&, node, bytes, ack](host::ProcessContext& ctx, Ni& ni) {
            const uint32_t peer = 1 - node;
            const bool first = node == 0;
            auto eq = ni.eq_alloc(ctx, 64);
            auto me = ni.me_attach(ctx, 0, {peer, 0}, 1, 0, PTL_RETAIN, PTL_INS_AFTER);
            ni.md_attach(ctx, me, md(kIn, bytes, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE, eq),
                         PTL_RETAIN);
            auto out = ni.md_bind(ctx, md(kOut, bytes, 0, PTL_EQ_NONE), PTL_RETAIN);
            ctx.sleep_for(Time::us(10));  // both sides are ready
            if (first) {
                g_allocations = 0;
                g_counting = true;
            }
            for (int i = 0; i < kWarmup + kCounted; ++i) {
                if (first && i == kWarmup) {
                    counts.warmup = g_allocations;
                    g_allocations = 0;
                }
                if (first) ni.put(ctx, out, ack, {peer, 0}, 0, 0, 1, 0);
                while (ni.eq_wait(ctx, eq).type != PTL_EVENT_PUT_END) {}
                if (!first) ni.put(ctx, out, ack, {peer, 0}, 0, 0, 1, 0);
            }
            if (first) {
                g_counting = false;
                counts.counted = g_allocations;
            }
        });
    }
    c.run();
    g_counting = false;
    for (uint32_t node = 0; node < 2; ++node)
        EXPECT_TRUE(bytes_equal(c.sys.host_memory(node), kIn, pattern(bytes, 2 - node))) << "node " << node;
    return counts;
}

TEST(PortalsNoAlloc, ZeroBytePutPingPongAllocatesNothingInSteadyState) {
    const Counts counts = ping_pong(0, PTL_NOACK_REQ);
    EXPECT_GT(counts.warmup, 0u);  // the counter sees what the warm-up grows
    EXPECT_EQ(counts.counted, 0u);
}

TEST(PortalsNoAlloc, PutPingPongWithDataAllocatesNothingInSteadyState) {
    for (uint32_t bytes : {8u, 1024u, 8192u}) {
        const Counts counts = ping_pong(bytes, PTL_NOACK_REQ);
        EXPECT_EQ(counts.counted, 0u) << bytes << "-byte puts";
    }
}

TEST(PortalsNoAlloc, AcknowledgedPutPingPongAllocatesNothingInSteadyState) {
    const Counts counts = ping_pong(64, PTL_ACK_REQ);
    EXPECT_EQ(counts.counted, 0u);
}

}  // namespace
}  // namespace niclab::test::ptl
