// Interrupts take the CPU from the running process: the handler runs after the
// entry cost, the process finishes later by the interrupt's duration, and the
// interrupt's time is charged to the CPU, not to the process (seed 001 §3.3).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "host_test_support.hpp"

namespace niclab::host::test {

TEST(Interrupts, DefaultCostIsTheSeedsTwoMicroseconds) {
    HostConfig cfg;
    EXPECT_EQ(cfg.interrupt_entry + cfg.interrupt_exit, us(2));
    EXPECT_EQ(cfg.null_trap, ns(75));
}

TEST(Interrupts, InterruptDuringComputePushesTheEndBack) {
    HostFixture f;
    const Time cost = f.cpu.config().interrupt_entry + f.cpu.config().interrupt_exit;
    Process& p = f.spawn("app", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    Time handler_ran, taken_at;
    f.kernel.schedule_at(us(3), [&] {
        f.cpu.raise_interrupt([&](InterruptContext& irq) {
            handler_ran = irq.now();
            taken_at = irq.raised_at();
        });
    });
    f.kernel.run_until(us(4));
    EXPECT_TRUE(f.cpu.in_interrupt());
    EXPECT_EQ(p.state(), Process::State::preempted);
    EXPECT_EQ(p.cpu_time(), us(3));
    f.run();
    EXPECT_EQ(taken_at, us(3));
    EXPECT_EQ(handler_ran, us(3) + f.cpu.config().interrupt_entry);
    EXPECT_EQ(p.end_time(), us(10) + cost);
    EXPECT_EQ(p.user_time(), us(10));  // the interrupt is not the process's time
    CpuTimes t = f.cpu.times();
    EXPECT_EQ(t.interrupt, cost);
    EXPECT_EQ(t.user, us(10));
    EXPECT_EQ(t.interrupts, 1u);
    EXPECT_EQ(t.idle(), Time{});
}

TEST(Interrupts, HandlerWorkAndExitCostExtendTheInterrupt) {
    HostConfig cfg;
    cfg.interrupt_entry = us(1);
    cfg.interrupt_exit = ns(500);
    cfg.copy_bandwidth_mb_s = 1000;  // 1 ns per byte
    HostFixture f(cfg);
    Process& p = f.spawn("app", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    f.kernel.schedule_at(us(3), [&] {
        f.cpu.raise_interrupt([](InterruptContext& irq) {
            irq.charge(ns(250));
            irq.copy(64);  // an event queue entry
        });
    });
    f.run();
    const Time irq = us(1) + ns(250) + ns(64) + ns(500);
    EXPECT_EQ(p.end_time(), us(10) + irq);
    EXPECT_EQ(f.cpu.times().interrupt, irq);
}

TEST(Interrupts, InterruptOnAnIdleCpuStealsNothing) {
    HostFixture f;
    f.kernel.schedule_at(us(1), [&] { f.cpu.raise_interrupt({}); });
    Process& p = f.spawn("late", [](ProcessContext& ctx) {
        ctx.sleep_until(us(2));
        ctx.compute(us(1));
    });
    f.run();
    // The process woke at 2 us while the interrupt (1..3 us) held the core.
    EXPECT_EQ(p.end_time(), us(4));
    CpuTimes t = f.cpu.times();
    EXPECT_EQ(t.interrupt, us(2));
    EXPECT_EQ(t.user, us(1));
    EXPECT_EQ(t.idle(), us(1));
}

TEST(Interrupts, InterruptsDoNotNestTheyQueue) {
    HostFixture f;
    std::vector<Time> ran;
    f.kernel.schedule_at(us(1), [&] {
        f.cpu.raise_interrupt([&](InterruptContext& irq) { ran.push_back(irq.now()); });
    });
    f.kernel.schedule_at(us(2), [&] {
        f.cpu.raise_interrupt([&](InterruptContext& irq) {
            ran.push_back(irq.now());
            EXPECT_EQ(irq.raised_at(), us(2));
        });
    });
    Process& p = f.spawn("app", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    f.run();
    ASSERT_EQ(ran.size(), 2u);
    EXPECT_EQ(ran[0], us(3));  // taken at 1, entry 2
    EXPECT_EQ(ran[1], us(5));  // taken at 3 when the first one left, entry 2
    EXPECT_EQ(p.end_time(), us(14));
    EXPECT_EQ(f.cpu.times().interrupts, 2u);
}

TEST(Interrupts, InterruptPreemptsASyscallToo) {
    HostFixture f;
    Process& p = f.spawn("app", [](ProcessContext& ctx) { ctx.syscall(us(5)); });
    f.kernel.schedule_at(us(1), [&] { f.cpu.raise_interrupt({}); });
    f.run();
    EXPECT_EQ(p.end_time(), ns(5075) + us(2));
    EXPECT_EQ(p.system_time(), ns(5075));
}

TEST(Interrupts, HandlerWakesAProcessWhichRunsAfterTheInterrupt) {
    HostFixture f;
    Condition eq;
    Time woke;
    f.spawn("app", [&](ProcessContext& ctx) {
        ctx.wait(eq);
        woke = ctx.now();
    });
    f.kernel.schedule_at(us(1), [&] { f.cpu.raise_interrupt([&](InterruptContext&) { eq.notify_all(); }); });
    f.run();
    EXPECT_EQ(woke, us(3));
}

TEST(Interrupts, AThrowingHandlerReachesTheCallerAndTheCpuGoesOn) {
    HostFixture f;
    Process& p = f.spawn("app", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    f.kernel.schedule_at(us(3), [&] {
        f.cpu.raise_interrupt([](InterruptContext& irq) {
            irq.charge(us(1));
            throw std::runtime_error("bad event queue entry");
        });
    });
    EXPECT_THROW(f.kernel.run_until(Time::ms(1)), std::runtime_error);
    f.run();
    EXPECT_EQ(p.end_time(), us(13));
    EXPECT_FALSE(f.cpu.in_interrupt());
}

TEST(Interrupts, MeasurementWindowsSubtract) {
    HostFixture f;
    f.spawn("app", [](ProcessContext& ctx) { ctx.compute(us(20)); });
    for (int i = 1; i <= 4; ++i)
        f.kernel.schedule_at(us(5 * i), [&] { f.cpu.raise_interrupt({}); });
    f.kernel.run_until(us(10));
    CpuTimes before = f.cpu.times();
    f.kernel.run_until(us(20));
    CpuTimes window = f.cpu.times() - before;
    EXPECT_EQ(window.elapsed, us(10));
    EXPECT_EQ(window.interrupts, 2u);  // taken at 15 and 20 us (run_until includes its end)
    EXPECT_EQ(window.interrupt, us(4));
    EXPECT_EQ(window.user, us(6));
    EXPECT_DOUBLE_EQ(window.share(window.user), 0.6);
}

}  // namespace niclab::host::test
