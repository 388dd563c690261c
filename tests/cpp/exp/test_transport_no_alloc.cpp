// Every system's message path allocates nothing in steady state: a ping-pong through
// the system's host library (msg::Transport, as every experiment runs it) counts every
// allocation of 100 round trips after a warm-up - both nodes' libraries, NICs or their
// firmware, the network and the kernel. This binary replaces the global operator new
// (counting_new.hpp). The SeaStar's Portals path has its own, finer test
// (msg/test_portals_no_alloc.cpp).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "counting_new.hpp"
#include "niclab/exp/bench.hpp"

namespace niclab::exp {
namespace {

constexpr int kCounted = 100;
// Beyond the SeaStar firmware's 1,018 RX pendings, whose headers it writes to host
// memory in turn (host memory allocates a page when first written).
constexpr int kWarmup = 1100;

struct Counts {
    size_t warmup = 0, counted = 0;
};

struct Case {
    std::string system, firmware, transport;  // "": the system's own default
};

Counts ping_pong(const Case& c, uint64_t bytes) {
    nlohmann::json j = {{"system", c.system}, {"nodes", 2}};
    if (!c.firmware.empty()) j["firmware"] = {std::string(NICLAB_FIRMWARE_DIR) + "/" + c.firmware};
    Result result;
    Pair pair;
    pair.transport = c.transport;
    Bench bench(system::SystemSpec::from_json(j), result, Observe{}, pair);
    Counts counts;
    uint64_t received = 0;
    bench.run(
        [&](host::ProcessContext& ctx, msg::Transport& me) {
            me.open(ctx, bytes);
            bench.meet(ctx, me);
            me.prepare_send(ctx, bytes);
            g_allocations = 0;
            g_counting = true;
            for (int i = 0; i < kWarmup + kCounted; ++i) {
                if (i == kWarmup) {
                    counts.warmup = g_allocations;
                    g_allocations = 0;
                }
                me.send(ctx);
                received += me.recv(ctx).bytes;  // checked against the peer's pattern
            }
            g_counting = false;
            counts.counted = g_allocations;
        },
        [&](host::ProcessContext& ctx, msg::Transport& me) {
            me.open(ctx, bytes);
            bench.meet(ctx, me);
            me.prepare_send(ctx, bytes);
            for (int i = 0; i < kWarmup + kCounted; ++i) {
                me.recv(ctx);
                me.send(ctx);
            }
        });
    g_counting = false;
    EXPECT_EQ(received, (kWarmup + kCounted) * bytes) << c.system;
    return counts;
}

// The DSNIC with each of its CSP sends: the blocking one, the non-blocking one and the
// buffered one, which copies each message into the driver's kernel buffer. Its board
// reuses its packets' byte buffers (dsnic::PacketBuffers).
TEST(TransportNoAlloc, APingPongAllocatesNothingInSteadyStateOnEverySystem) {
    for (const Case& c : std::vector<Case>{{"seastar", "portals/portals.elf", ""},
                                           {"grim", "grim/grim.elf", ""},
                                           {"startx", "", ""},
                                           {"t9000", "", ""},
                                           {"dsnic", "", "csp"},
                                           {"dsnic", "", "csp_async"},
                                           {"dsnic", "", "csp_buffered"}}) {
        for (uint64_t bytes : {8u, 1024u}) {
            SCOPED_TRACE(c.system + " " + c.transport + ", " + std::to_string(bytes) + "-byte messages");
            const Counts counts = ping_pong(c, bytes);
            EXPECT_GT(counts.warmup, 0u);  // the counter sees what the warm-up grows
            EXPECT_EQ(counts.counted, 0u);
        }
    }
}

}  // namespace
}  // namespace niclab::exp
