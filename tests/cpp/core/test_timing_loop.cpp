// Instruction fetch timing, measured by running firmware (loop_cached.S): an ALU
// loop with the caches off, with the I-cache on, and with both caches on.
#include "timing_support.hpp"

namespace niclab::test {
namespace {

constexpr int64_t kIterations = 1000;  // loop_cached.S
constexpr int64_t kBodyInsns = 9;      // 8 ALU + the branch

// Cycles of the loop itself with no fetch costs: every instruction, branch
// included, issues in cpi_alu; all but the last branch are taken.
int64_t loop_cycles(const TimingRun& run) {
    return kIterations * kBodyInsns * run.param("core.cpi_alu") +
           (kIterations - 1) * run.param("core.taken_branch_penalty");
}

// The loop's I-cache lines, checked against the layout loop_cached.S promises.
int64_t loop_lines(TimingRun& run) {
    const uint32_t line = uint32_t(run.param("core.icache.line_bytes"));
    const uint32_t start = run.symbol("loop_start"), end = run.symbol("loop_end");
    EXPECT_EQ(start % line, 0u) << "loop_start must begin an I-cache line";
    EXPECT_EQ(run.symbol("measure_start") / line, start / line - 1) << "measure_start must be in the line before";
    EXPECT_EQ((end + 4) / line, (end - 4) / line) << "the closing CSR reads must share the loop's last line";
    return int64_t((end - 4) / line - start / line + 1);
}

TEST(CoreTimingLoop, ICacheWarmCostsOnlyTheInstructions) {
    TimingRun run("loop_cached_i");
    ASSERT_TRUE(run.halted());
    Measurement warm = run.result(1);
    EXPECT_EQ(warm.instret, kIterations * kBodyInsns + TimingRun::kOverheadInsns);
    EXPECT_EQ(warm.cycles, loop_cycles(run) + run.overhead_cycles());
}

TEST(CoreTimingLoop, ColdICacheMissesOncePerLineOfTheLoop) {
    TimingRun run("loop_cached_i");
    ASSERT_TRUE(run.halted());
    const int64_t lines = loop_lines(run);
    EXPECT_GE(lines, 2) << "the loop should span lines, or the test proves little";
    Measurement cold = run.result(0), warm = run.result(1);
    EXPECT_EQ(cold.instret, warm.instret);
    EXPECT_EQ(cold.cycles - warm.cycles, lines * run.line_fill_cycles("icache"));
}

// With the I-cache off the core still fetches whole lines into its fill buffer (PPC440x5
// manual p.104) but keeps none: every line the pc enters is read again, so each of the
// loop's iterations reads all its lines, warm or not.
int64_t caches_off_loop_cycles(TimingRun& run) {
    return loop_cycles(run) + run.overhead_cycles() + kIterations * loop_lines(run) * run.line_fill_cycles("icache");
}

TEST(CoreTimingLoop, CachesOffReadEveryLineThePcEnters) {
    TimingRun off("loop_cached_off"), on("loop_cached_i");
    ASSERT_TRUE(off.halted());
    ASSERT_TRUE(on.halted());
    for (int pass = 0; pass < 2; ++pass) {
        Measurement m = off.result(pass);
        EXPECT_EQ(m.instret, kIterations * kBodyInsns + TimingRun::kOverheadInsns);
        EXPECT_EQ(m.cycles, caches_off_loop_cycles(off)) << "pass " << pass;
    }
    // Against the warm I-cache: one line read per line per iteration, not per instruction.
    EXPECT_EQ(off.result(1).cycles - on.result(1).cycles,
              kIterations * loop_lines(on) * on.line_fill_cycles("icache"));
}

// A core without a line buffer (core.uncached_fetch_fills_line 0, the LANai's) takes each
// instruction from SRAM in its issue cycle: with the caches off the loop costs what the
// warm I-cache run costs, its instructions only.
TEST(CoreTimingLoop, WithoutALineBufferCachesOffCostOnlyTheInstructions) {
    TimingRun off("loop_cached_off", {{"core.uncached_fetch_fills_line", 0}});
    ASSERT_TRUE(off.halted());
    EXPECT_GE(loop_lines(off), 2) << "the loop should span lines, or the test proves little";
    for (int pass = 0; pass < 2; ++pass) {
        Measurement m = off.result(pass);
        EXPECT_EQ(m.instret, kIterations * kBodyInsns + TimingRun::kOverheadInsns);
        EXPECT_EQ(m.cycles, loop_cycles(off) + off.overhead_cycles()) << "pass " << pass;
    }
}

TEST(CoreTimingLoop, DCacheDoesNotChangeAnAluLoop) {
    TimingRun i("loop_cached_i"), id("loop_cached_id");
    ASSERT_TRUE(i.halted());
    ASSERT_TRUE(id.halted());
    for (int pass = 0; pass < 2; ++pass) {
        EXPECT_EQ(id.result(pass).cycles, i.result(pass).cycles) << "pass " << pass;
        EXPECT_EQ(id.result(pass).instret, i.result(pass).instret) << "pass " << pass;
    }
}

// The costs come from the model's parameters, not from constants in the core.
TEST(CoreTimingLoop, ParametersDriveTheMeasuredCycles) {
    TimingRun base("loop_cached_i");
    TimingRun slow("loop_cached_i", {{"core.taken_branch_penalty", 5}, {"core.sram_read_cycles", 20}});
    ASSERT_TRUE(slow.halted());
    EXPECT_EQ(slow.result(1).cycles, loop_cycles(slow) + slow.overhead_cycles());
    EXPECT_EQ(slow.result(1).cycles - base.result(1).cycles, (kIterations - 1) * (slow.param("core.taken_branch_penalty") - base.param("core.taken_branch_penalty")));
    EXPECT_EQ(slow.result(0).cycles - slow.result(1).cycles, loop_lines(slow) * slow.line_fill_cycles("icache"));
}

// cache_toggle.S: the loop before and after the firmware turns the I-cache on.
TEST(CoreTimingLoop, BeforeAndLongAfterTurningTheICacheOn) {
    TimingRun run("cache_toggle");
    ASSERT_TRUE(run.halted());
    Measurement off = run.result(0), warm = run.result(2);
    EXPECT_EQ(off.cycles, caches_off_loop_cycles(run));
    EXPECT_EQ(warm.cycles, loop_cycles(run) + run.overhead_cycles());
}

// Right after the switch the loop costs what it costs on a cold start with the
// I-cache on: one fill per line, and nothing left over from the caches-off run.
TEST(CoreTimingLoop, FirstRunAfterTurningTheICacheOnCostsLikeAColdStart) {
    TimingRun run("cache_toggle");
    ASSERT_TRUE(run.halted());
    EXPECT_EQ(run.result(1).instret, run.result(2).instret);
    EXPECT_EQ(run.result(1).cycles - run.result(2).cycles, loop_lines(run) * run.line_fill_cycles("icache"));
}

}  // namespace
}  // namespace niclab::test
