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

Counts ping_pong(const std::string& system, const std::string& firmware, uint64_t bytes) {
    nlohmann::json j = {{"system", system}, {"nodes", 2}};
    if (!firmware.empty()) j["firmware"] = {std::string(NICLAB_FIRMWARE_DIR) + "/" + firmware};
    Result result;
    Bench bench(system::SystemSpec::from_json(j), result, Observe{}, Pair{});
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
    EXPECT_EQ(received, (kWarmup + kCounted) * bytes) << system;
    return counts;
}

// The DSNIC is left out: its FIFOs keep each packet's bytes in a std::vector of their own
// (dsnic/fifo.hpp), several allocations a round trip.
TEST(TransportNoAlloc, APingPongAllocatesNothingInSteadyStateOnEverySystem) {
    for (const auto& [system, firmware] : std::vector<std::pair<std::string, std::string>>{
             {"seastar", "portals/portals.elf"}, {"grim", "grim/grim.elf"}, {"startx", ""}, {"t9000", ""}}) {
        for (uint64_t bytes : {8u, 1024u}) {
            SCOPED_TRACE(system + ", " + std::to_string(bytes) + "-byte messages");
            const Counts counts = ping_pong(system, firmware, bytes);
            EXPECT_GT(counts.warmup, 0u);  // the counter sees what the warm-up grows
            EXPECT_EQ(counts.counted, 0u);
        }
    }
}

}  // namespace
}  // namespace niclab::exp
