// One core is one resource: processes take turns in FIFO order, waiting costs no
// CPU, and the same scenario always gives the same times.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "host_test_support.hpp"

namespace niclab::host::test {

TEST(Scheduling, TwoProcessesShareOneCoreFifo) {
    HostFixture f;
    Process& a = f.spawn("a", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    Process& b = f.spawn("b", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    f.run();
    EXPECT_EQ(a.end_time(), us(10));
    EXPECT_EQ(b.start_time(), us(10));
    EXPECT_EQ(b.end_time(), us(20));
    CpuTimes t = f.cpu.times();
    EXPECT_EQ(t.user, us(20));
    EXPECT_EQ(t.idle(), Time{});
}

TEST(Scheduling, ThousandProcessesFinishInOrder) {
    HostFixture f;
    std::vector<int> order;
    for (int i = 0; i < 1000; ++i)
        f.spawn(std::to_string(i), [i, &order](ProcessContext& ctx) {
            ctx.compute(us(1));
            order.push_back(i);
        });
    f.run(Time::ms(100));
    ASSERT_EQ(order.size(), 1000u);
    for (int i = 0; i < 1000; ++i) {
        EXPECT_EQ(order[i], i);
        EXPECT_EQ(f.procs[i]->end_time(), us(i + 1));
    }
    // Started one at a time, so only one stack was ever mapped.
    EXPECT_LE(f.cpu.stack_pool().peak_in_use(), 1u);
}

TEST(Scheduling, AKernelEventWakesAWaitingProcessAtItsTime) {
    HostFixture f;
    Condition dma_done;
    Time resumed;
    Process& p = f.spawn("app", [&](ProcessContext& ctx) {
        ctx.wait(dma_done);
        resumed = ctx.now();
        ctx.compute(us(1));
    });
    f.kernel.schedule_at(us(5), [&] { dma_done.notify_all(); });
    f.run();
    EXPECT_EQ(resumed, us(5));
    EXPECT_EQ(p.end_time(), us(6));
    EXPECT_EQ(p.cpu_time(), us(1));
    EXPECT_EQ(f.cpu.times().idle(), us(5));
}

TEST(Scheduling, WaitForChecksThePredicateAfterEachNotify) {
    HostFixture f;
    Condition eq_changed;
    int events = 0;
    Time resumed;
    f.spawn("app", [&](ProcessContext& ctx) {
        ctx.wait_for(eq_changed, [&] { return events >= 3; });
        resumed = ctx.now();
    });
    for (int i = 1; i <= 3; ++i)
        f.kernel.schedule_at(us(i), [&] {
            ++events;
            eq_changed.notify_all();
        });
    f.run();
    EXPECT_EQ(resumed, us(3));
}

TEST(Scheduling, WaitForReturnsAtOnceWhenThePredicateAlreadyHolds) {
    HostFixture f;
    Condition c;
    Process& p = f.spawn("app", [&](ProcessContext& ctx) { ctx.wait_for(c, [] { return true; }); });
    f.run();
    EXPECT_TRUE(p.done());
    EXPECT_EQ(p.end_time(), Time{});
}

TEST(Scheduling, ANotifiedProcessWaitsForTheCore) {
    HostFixture f;
    Condition go;
    Time consumer_ran;
    f.spawn("consumer", [&](ProcessContext& ctx) {
        ctx.wait(go);
        consumer_ran = ctx.now();
    });
    f.spawn("producer", [&](ProcessContext& ctx) {
        ctx.compute(us(2));
        go.notify_one();
        ctx.compute(us(3));  // still holds the only core
    });
    f.run();
    EXPECT_EQ(consumer_ran, us(5));
}

TEST(Scheduling, NotifyOneWakesTheLongestWaiter) {
    HostFixture f;
    Condition c;
    std::vector<std::string> woke;
    for (const char* n : {"first", "second"})
        f.spawn(n, [&, n](ProcessContext& ctx) {
            ctx.wait(c);
            woke.push_back(n);
        });
    f.kernel.schedule_at(us(1), [&] { c.notify_one(); });
    f.kernel.schedule_at(us(2), [&] { c.notify_one(); });
    f.run();
    ASSERT_EQ(woke.size(), 2u);
    EXPECT_EQ(woke[0], "first");
    EXPECT_EQ(woke[1], "second");
}

TEST(Scheduling, ExtraCoresRunProcessesInParallel) {
    HostConfig cfg;
    cfg.cores = 2;
    HostFixture f(cfg);
    Process& a = f.spawn("a", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    Process& b = f.spawn("b", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    Process& c = f.spawn("c", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    f.run();
    EXPECT_EQ(a.end_time(), us(10));
    EXPECT_EQ(b.end_time(), us(10));
    EXPECT_EQ(c.end_time(), us(20));
    CpuTimes t = f.cpu.times();
    EXPECT_EQ(t.elapsed, us(40));
    EXPECT_EQ(t.user, us(30));
    EXPECT_EQ(t.idle(), us(10));
}

namespace {

// A mixed scenario: compute, syscalls, copies, waits, interrupts and a kernel thread.
std::vector<int64_t> run_scenario() {
    HostFixture f;
    std::vector<int64_t> times;
    Condition ready;
    int items = 0;
    for (int i = 0; i < 5; ++i)
        f.spawn(std::to_string(i), [&, i](ProcessContext& ctx) {
            ctx.compute(us(1 + i));
            ctx.syscall(ns(100 * i));
            ctx.wait_for(ready, [&] { return items > i; });
            ctx.copy(1000 * (i + 1));
            times.push_back(ctx.now().ps());
        });
    for (int i = 0; i < 5; ++i)
        f.kernel.schedule_at(us(2 + 3 * i), [&] {
            f.cpu.raise_interrupt([&](InterruptContext& irq) {
                irq.charge(ns(300));
                ++items;
                ready.notify_all();
            });
        });
    f.run();
    times.push_back(f.cpu.times().interrupt.ps());
    times.push_back(int64_t(f.kernel.events_fired()));
    return times;
}

}  // namespace

TEST(Scheduling, SameScenarioGivesTheSameTimes) {
    auto first = run_scenario();
    auto second = run_scenario();
    ASSERT_EQ(first.size(), 7u);
    EXPECT_EQ(first, second);
}

}  // namespace niclab::host::test
