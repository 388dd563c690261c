// Temporal decoupling: the core runs ahead of global time only up to the kernel's
// horizon (the next event), so when an event fires the core is at most one
// instruction past it; and a device access that schedules an earlier event pulls
// the horizon in.
#include <vector>

#include "cpu_fixture.hpp"

namespace niclab::test {
namespace {

using namespace rv;

class Horizon : public CpuTest {};

TEST_F(Horizon, CoreIsWithinOneInstructionOfEveryEvent) {
    program(0x00, {div(1, 5, 6), add(2, 2, 1), addi(3, 3, 1), jal(0, -12)});
    core::Cpu& c = start();
    c.set_reg(5, 1000);
    c.set_reg(6, 7);
    const Time longest = c.clock().cycles(line_read() + cfg_.cpi_div);  // the div with the line read, the longest step

    std::vector<Time> overshoot;
    for (int64_t ns = 3; ns < 5000; ns += 37)  // not aligned to the core's instruction boundaries
        kernel_.schedule_at(Time::ns(ns), [&] { overshoot.push_back(c.local_time() - kernel_.now()); });
    run_until(Time::us(5));
    ASSERT_FALSE(overshoot.empty());
    for (Time d : overshoot) {
        EXPECT_GE(d, Time{}) << "an event fired before the core reached it";
        EXPECT_LT(d, longest) << "the core ran more than one instruction past an event";
    }
}

// The bus sees the core's own time at an access, not the stale global time.
TEST_F(Horizon, DeviceSeesTheCoresLocalTime) {
    program(0x00, {lui(9, FakeBus::kDeviceBase >> 12), div(1, 5, 6), div(1, 5, 6), sw(0, 9, 0), wfi()});
    core::Cpu& c = start();
    run_until(Time::us(1));
    ASSERT_EQ(bus_.access_times.size(), 1u);
    const uint64_t before = line_read() + cfg_.cpi_alu + 2 * cfg_.cpi_div + cfg_.cpi_store;
    EXPECT_EQ(bus_.access_times[0], c.time_at_cycle(before));
}

// A store to a device schedules an event a little later (e.g. a doorbell's
// effect); the core must stop at that event, not run on to the end of the run.
TEST_F(Horizon, EventScheduledDuringABurstShrinksTheHorizon) {
    program(0x00, {lui(9, FakeBus::kDeviceBase >> 12), sw(0, 9, 0), addi(3, 3, 1), jal(0, -4)});
    core::Cpu& c = start();
    const Time delay = Time::ns(50);
    Time fired_at{}, core_at{};
    bus_.on_write = [&](uint32_t, uint32_t, Time now) {
        kernel_.schedule_at(now + delay, [&] {
            fired_at = kernel_.now();
            core_at = c.local_time();
        });
    };
    run_until(Time::us(10));
    ASSERT_NE(fired_at, Time{});
    const Time longest = c.clock().cycles(line_read() + cfg_.cpi_alu + cfg_.taken_branch_penalty);
    EXPECT_GE(core_at, fired_at);
    EXPECT_LT(core_at - fired_at, longest);
}

// Cpu::private_runs: of the runs the kernel cut the core's execution into, those that made
// no device or uncached access and did not go to sleep (what bench_scale reports).
TEST_F(Horizon, PrivateRunsTouchNothingSharedAndDoNotSleep) {
    program(0x00, {addi(3, 3, 1), addi(4, 4, 2), jal(0, -8)});
    core::Cpu& c = start();
    for (int64_t ns = 3; ns < 5000; ns += 37) kernel_.schedule_at(Time::ns(ns), [] {});  // each cuts a run
    run_until(Time::us(5));
    EXPECT_GT(c.runs(), 100u);
    EXPECT_EQ(c.private_runs(), c.runs());
}

TEST_F(Horizon, ARunWithADeviceOrUncachedAccessIsNotPrivate) {
    // A device store, then an uncached load, in every pass of the loop: a run too short
    // for a whole pass may miss both, but most take one of them.
    program(0x00, {lui(9, FakeBus::kDeviceBase >> 12), lui(10, kUncachedBase >> 12), sw(0, 9, 0), lw(5, 10, 0x400),
                   jal(0, -8)});
    core::Cpu& c = start();
    for (int64_t ns = 3; ns < 5000; ns += 37) kernel_.schedule_at(Time::ns(ns), [] {});
    run_until(Time::us(5));
    EXPECT_GT(c.runs(), 100u);
    EXPECT_LT(c.private_runs() * 4, c.runs());
}

TEST_F(Horizon, ARunEndingAsleepIsNotPrivate) {
    program(0x00, {addi(3, 3, 1), wfi()});
    core::Cpu& c = start();
    run_until(Time::us(1));
    EXPECT_FALSE(c.active());
    EXPECT_EQ(c.runs(), 1u);
    EXPECT_EQ(c.private_runs(), 0u);
}

}  // namespace
}  // namespace niclab::test
