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

// The core's horizon in cycles (Cpu::cycles_ceil, by a prepared divisor) is the clock's
// own count, for clocks of the presets and odd ones, at times around whole cycles, at
// pseudo-random times, and at the end of time, where the horizon of a run to Time::max()
// sits and the clock's sum wraps.
TEST(CpuClock, TheCoresCycleCountOfATimeIsTheClocksOwn) {
    std::vector<Time> times = {Time{}, Time::ps(-5), Time::ps(1), Time::max()};
    for (int64_t k = 1; k < 2000; ++k) times.push_back(Time::max() - Time::ps(k));
    uint64_t x = 12345;
    for (int i = 0; i < 20000; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        times.push_back(Time::ps(int64_t(x >> (1 + i % 40))));
    }
    std::vector<uint8_t> sram(0x10000, 0);
    FakeBus bus;
    for (int64_t mhz : {500, 133, 66, 33, 7, 999, 1000}) {
        sim::Kernel kernel;
        core::CoreConfig cfg;
        cfg.clock_mhz = mhz;
        core::Cpu c(kernel, cfg, core::SramView{sram.data(), uint32_t(sram.size()), 0, 0x100000}, bus);
        const int64_t period = c.clock().period_ps();
        std::vector<Time> here = times;
        for (int64_t k = -2; k <= 2; ++k)
            for (int64_t cycles : {int64_t(1), int64_t(7), int64_t(1) << 40}) here.push_back(Time::ps(cycles * period + k));
        for (Time t : here) ASSERT_EQ(c.cycles_ceil(t), c.clock().cycles_ceil(t)) << mhz << " MHz, " << t.ps() << " ps";
        kernel.remove_runnable(&c);
    }
}

}  // namespace
}  // namespace niclab::test
