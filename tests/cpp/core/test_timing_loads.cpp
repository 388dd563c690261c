// Load timing through the two SRAM views, measured by firmware
// (loop_uncached_data.S, I-cache off): an uncached load stalls for an SRAM read,
// the D-cache turns all but the first cached load into hits.
#include "timing_support.hpp"

namespace niclab::test {
namespace {

constexpr int64_t kIterations = 100;  // loop_uncached_data.S
constexpr int64_t kBodyInsns = 3;     // lw, count down, branch

class CoreTimingLoads : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(run.halted()); }

    // The loop before the loads' data costs: each instruction pays its base cost; the
    // region sits in one line (loop_uncached_data.S), fetched before it starts.
    int64_t loop_without_data() const {
        return kIterations * (run.param("core.cpi_load") + 2 * run.param("core.cpi_alu")) +
               (kIterations - 1) * run.param("core.taken_branch_penalty") + run.overhead_cycles();
    }

    TimingRun run{"loop_uncached_data"};
};

TEST_F(CoreTimingLoads, UncachedLoadsCostAnSramReadEach) {
    Measurement m = run.result(0);
    EXPECT_EQ(m.instret, kIterations * kBodyInsns + TimingRun::kOverheadInsns);
    EXPECT_EQ(m.cycles, loop_without_data() + kIterations * run.param("core.sram_read_cycles"));
}

TEST_F(CoreTimingLoads, CachedViewWithDCacheOffCostsTheSame) {
    EXPECT_EQ(run.result(1).cycles, run.result(0).cycles);
}

TEST_F(CoreTimingLoads, DCacheHitsAfterOneColdLineFill) {
    EXPECT_EQ(run.result(2).cycles, loop_without_data() + run.line_fill_cycles("dcache"));
    EXPECT_EQ(run.nic().cpu().dcache().misses, 1u);
}

TEST_F(CoreTimingLoads, UncachedViewBypassesTheDCache) {
    EXPECT_EQ(run.result(3).cycles, run.result(0).cycles);
}

TEST(CoreTimingLoadsOverride, SramReadCyclesSetTheUncachedLoadCost) {
    TimingRun run("loop_uncached_data", {{"core.sram_read_cycles", 3}});
    ASSERT_TRUE(run.halted());
    const int64_t r = run.param("core.sram_read_cycles");
    ASSERT_EQ(r, 3);
    EXPECT_EQ(run.result(0).cycles,
              kIterations * (run.param("core.cpi_load") + r + 2 * run.param("core.cpi_alu")) +
                  (kIterations - 1) * run.param("core.taken_branch_penalty") + run.overhead_cycles());
}

}  // namespace
}  // namespace niclab::test
