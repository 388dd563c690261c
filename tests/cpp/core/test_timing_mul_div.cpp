// M-extension timing, measured by firmware (mul_div.S, warm I-cache): multiplies
// cost cpi_mul, divides and remainders cpi_div, whatever those are set to.
#include "timing_support.hpp"

namespace niclab::test {
namespace {

constexpr int64_t kIterations = 100;  // mul_div.S
constexpr int64_t kOps = 4;           // M-extension instructions per iteration

int64_t expected(const TimingRun& run, const char* op_cost) {
    return kIterations * (kOps * run.param(op_cost) + 2 * run.param("core.cpi_alu")) +
           (kIterations - 1) * run.param("core.taken_branch_penalty") + run.overhead_cycles();
}

TEST(CoreTimingMulDiv, MultipliesCostCpiMul) {
    TimingRun run("mul_div");
    ASSERT_TRUE(run.halted());
    EXPECT_EQ(run.result(0).instret, kIterations * (kOps + 2) + TimingRun::kOverheadInsns);
    EXPECT_EQ(run.result(0).cycles, expected(run, "core.cpi_mul"));
}

TEST(CoreTimingMulDiv, DividesCostCpiDiv) {
    TimingRun run("mul_div");
    ASSERT_TRUE(run.halted());
    EXPECT_EQ(run.result(1).cycles, expected(run, "core.cpi_div"));
}

// Overriding the preset changes what the firmware measures: timing comes from the
// model's parameters.
TEST(CoreTimingMulDiv, OverridesChangeTheMeasuredCycles) {
    TimingRun base("mul_div");
    TimingRun fast("mul_div", {{"core.cpi_div", 10}, {"core.cpi_mul", 2}});
    ASSERT_TRUE(fast.halted());
    EXPECT_EQ(fast.param("core.cpi_div"), 10);
    EXPECT_EQ(fast.result(1).cycles, expected(fast, "core.cpi_div"));
    EXPECT_EQ(fast.result(0).cycles, expected(fast, "core.cpi_mul"));
    EXPECT_EQ(base.result(1).cycles - fast.result(1).cycles,
              kIterations * kOps * (base.param("core.cpi_div") - 10));
}

}  // namespace
}  // namespace niclab::test
