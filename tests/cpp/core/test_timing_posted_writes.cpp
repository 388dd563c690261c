// Posted-write timing, measured by firmware (posted_writes.S): bursts of stores
// to uncached SRAM with a warm I-cache and an empty write buffer at the start.
#include <algorithm>
#include <deque>

#include "timing_support.hpp"

namespace niclab::test {
namespace {

// The documented write model (core_config.hpp, seed 000 §2/§3.3): a store issues
// in cpi_store; its write then keeps the bus busy for sram_write_cycles, writes go
// out one after another, and at most posted_writes are outstanding: a store that
// finds them all busy waits until the oldest completes. Cycles of a measured
// region of `n` stores (optionally followed by a fence that waits for them all).
int64_t expected_cycles(const TimingRun& run, int n, bool fence) {
    const int64_t issue = run.param("core.cpi_store"), occupancy = run.param("core.sram_write_cycles");
    const size_t slots = size_t(run.param("core.posted_writes"));
    int64_t t = run.param("core.cpi_csr");  // the minstret read after mcycle was sampled
    int64_t bus_free = 0;
    std::deque<int64_t> outstanding;  // completion cycles
    for (int i = 0; i < n; ++i) {
        t += issue;
        if (outstanding.size() == slots) {
            t = std::max(t, outstanding.front());
            outstanding.pop_front();
        }
        bus_free = std::max(bus_free, t) + occupancy;
        outstanding.push_back(bus_free);
    }
    if (fence) t = std::max(t + run.param("core.cpi_alu"), bus_free);
    return t + run.param("core.cpi_csr");  // the closing mcycle read
}

int64_t stall_free_cycles(const TimingRun& run, int n) {
    return n * run.param("core.cpi_store") + run.overhead_cycles();
}

void expect_bursts_match_model(TimingRun& run) {
    ASSERT_TRUE(run.halted());
    const int posted = int(run.param("core.posted_writes"));
    for (int n = 1; n <= 8; ++n) {
        Measurement m = run.result(n - 1);
        EXPECT_EQ(m.instret, n + TimingRun::kOverheadInsns) << n << " stores";
        EXPECT_EQ(m.cycles, expected_cycles(run, n, false)) << n << " stores";
        if (n <= posted) {
            EXPECT_EQ(m.cycles, stall_free_cycles(run, n)) << n << " stores must not stall";
        }
    }
    EXPECT_EQ(run.result(8).cycles, expected_cycles(run, 8, true)) << "8 stores + fence";
}

TEST(CoreTimingPostedWrites, PresetBurstsMatchTheWriteModel) {
    TimingRun run("posted_writes");
    expect_bursts_match_model(run);
    // SeaStar: 4 slots x 4 bus cycles; with single-cycle issue the oldest write has
    // just completed when the fifth store issues, so the first stall is at the sixth.
    const int p = int(run.param("core.posted_writes"));
    const int64_t w = run.param("core.sram_write_cycles"), c = run.param("core.cpi_store");
    if (w <= p * c) {
        EXPECT_EQ(run.result(p).cycles, stall_free_cycles(run, p + 1));
    }
    EXPECT_GT(run.result(7).cycles, stall_free_cycles(run, 8)) << "a long burst must stall";
}

// Slow writes: the store after `posted_writes` of them waits for the first write
// to complete, i.e. sram_write_cycles after it issued.
TEST(CoreTimingPostedWrites, StoreBeyondTheSlotsStallsUntilTheOldestCompletes) {
    TimingRun run("posted_writes", {{"core.sram_write_cycles", 12}});
    expect_bursts_match_model(run);
    const int p = int(run.param("core.posted_writes"));
    const int64_t w = run.param("core.sram_write_cycles"), c = run.param("core.cpi_store");
    const int64_t stall = w - p * c;  // first write completes at w after it issued; store p+1 issues p*c later
    ASSERT_GT(stall, 0);
    EXPECT_EQ(run.result(p).cycles - run.result(p - 1).cycles, c + stall);
}

TEST(CoreTimingPostedWrites, FenceWaitsForEveryWrite) {
    TimingRun run("posted_writes");
    ASSERT_TRUE(run.halted());
    // The eight writes occupy the bus back to back from the first store's issue.
    const int64_t drained = run.param("core.cpi_csr") + run.param("core.cpi_store") +
                            8 * run.param("core.sram_write_cycles");
    EXPECT_EQ(run.result(8).cycles, drained + run.param("core.cpi_csr"));
}

TEST(CoreTimingPostedWrites, FewerSlotsStallEarlier) {
    TimingRun run("posted_writes", {{"core.posted_writes", 2}});
    expect_bursts_match_model(run);
    EXPECT_GT(run.result(2).cycles, stall_free_cycles(run, 3));
}

}  // namespace
}  // namespace niclab::test
