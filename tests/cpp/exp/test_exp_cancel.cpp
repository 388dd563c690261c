// Cancelling a run within a point (the GUI's Cancel during an 8 MB ping-pong): the
// kernel polls Observe::cancel and run_experiment throws sim::Cancelled before the
// point under way finishes; the points before it were delivered.
#include <gtest/gtest.h>

#include <atomic>

#include "exp_test_support.hpp"
#include "niclab/exp/experiments.hpp"
#include "niclab/sim/kernel.hpp"

using namespace niclab;
using namespace niclab::exp;
using namespace niclab::exp::testing;

namespace {

TEST(Cancel, ASetFlagAbandonsThePointUnderWay) {
    std::atomic<bool> cancel{false};
    size_t points = 0;
    Observe observe;
    observe.cancel = &cancel;
    // The flag is raised as the first point is delivered, but the observer asks to go
    // on: only the kernel's poll can stop the 8 MB point that follows.
    observe.on_point = [&](const Result& r) {
        points = r.rows();
        cancel = true;
        return true;
    };
    EXPECT_THROW(run_experiment("pingpong", seastar_pair(), {{"sizes", {8, 8u << 20}}, {"repeats", 1}}, observe),
                 sim::Cancelled);
    EXPECT_EQ(points, 1u);
}

TEST(Cancel, AnUnsetFlagGivesTheSameResult) {
    std::atomic<bool> cancel{false};
    Observe observe;
    observe.cancel = &cancel;
    const nlohmann::json options = {{"sizes", {8, 4096}}, {"repeats", 2}};
    const Result with = run_experiment("pingpong", seastar_pair(), options, observe);
    const Result without = run_experiment("pingpong", seastar_pair(), options);
    EXPECT_EQ(with.column("latency_us"), without.column("latency_us"));
    EXPECT_FALSE(with.stopped);
}

}  // namespace
