// The kernel checks every cross-node event sooner than its lookahead plus the largest
// reach (sim::Kernel::set_reach) against how far the cores it reaches have run. A core
// that started a run with nothing pending anywhere (an unbounded horizon) and stopped
// at an event it scheduled itself has run only that far: the 8 MB ping-pong on the
// image without caches has such runs, and its packets are no breach.
#include "exp_test_support.hpp"

namespace niclab::exp {
namespace {

using testing::seastar_pair;

TEST(KernelReach, ACoreIsCheckedAgainstTheHorizonItStoppedAt) {
    Result r;
    ASSERT_NO_THROW(r = run_experiment("pingpong", seastar_pair("portals_nogbn_nocache"), {{"sizes", {8 << 20}}}));
    ASSERT_EQ(r.rows(), 1u);
}

}  // namespace
}  // namespace niclab::exp
