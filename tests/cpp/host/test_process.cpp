// A process's blocking calls cost exactly what the parameters say, and a failing
// body is reported without stopping the simulation.
#include <gtest/gtest.h>

#include <stdexcept>

#include "host_test_support.hpp"

namespace niclab::host::test {

TEST(Process, ComputeEndsAfterExactlyItsCost) {
    HostFixture f;
    Process& p = f.spawn("app", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    f.run();
    EXPECT_TRUE(p.done());
    EXPECT_FALSE(p.failed());
    EXPECT_EQ(p.start_time(), Time{});
    EXPECT_EQ(p.end_time(), us(10));
    EXPECT_EQ(p.user_time(), us(10));
    EXPECT_EQ(p.system_time(), Time{});
}

TEST(Process, SyscallCostsTheNullTrapPlusKernelWork) {
    HostConfig cfg;
    cfg.null_trap = ns(75);
    HostFixture f(cfg);
    Time after_trap, after_work;
    Process& p = f.spawn("app", [&](ProcessContext& ctx) {
        ctx.syscall();
        after_trap = ctx.now();
        ctx.syscall(ns(500));
        after_work = ctx.now();
    });
    f.run();
    EXPECT_EQ(after_trap, ns(75));
    EXPECT_EQ(after_work, ns(75 + 75 + 500));
    EXPECT_EQ(p.system_time(), ns(650));
    EXPECT_EQ(p.user_time(), Time{});
    EXPECT_EQ(f.cpu.times().system, ns(650));
}

TEST(Process, CopyCostsBytesAtTheCopyBandwidth) {
    HostConfig cfg;
    cfg.copy_bandwidth_mb_s = 2000;  // 0.5 ns per byte
    HostFixture f(cfg);
    Time t1, t2;
    f.spawn("app", [&](ProcessContext& ctx) {
        ctx.copy(4096);
        t1 = ctx.now();
        ctx.copy(1);
        t2 = ctx.now();
    });
    f.run();
    EXPECT_EQ(t1, ns(2048));
    EXPECT_EQ(t2, ns(2048) + Time::ps(500));
}

TEST(Process, SleepUntilUsesNoCpu) {
    HostFixture f;
    Time woke;
    Process& p = f.spawn("app", [&](ProcessContext& ctx) {
        ctx.sleep_until(us(7));
        woke = ctx.now();
        ctx.sleep_until(us(3));  // already past: returns at once
        ctx.sleep_for(us(1));
    });
    f.run();
    EXPECT_EQ(woke, us(7));
    EXPECT_EQ(p.end_time(), us(8));
    EXPECT_EQ(p.cpu_time(), Time{});
    EXPECT_EQ(f.cpu.times().busy(), Time{});
}

TEST(Process, ExceptionInBodyIsReportedAndTheSimulationGoesOn) {
    HostFixture f;
    Process& bad = f.spawn("bad", [](ProcessContext& ctx) {
        ctx.compute(us(1));
        throw std::runtime_error("descriptor table full");
    });
    Process& good = f.spawn("good", [](ProcessContext& ctx) { ctx.compute(us(2)); });
    f.run();
    EXPECT_TRUE(bad.done());
    EXPECT_TRUE(bad.failed());
    EXPECT_EQ(bad.end_time(), us(1));
    EXPECT_EQ(bad.error_message(), "descriptor table full");
    EXPECT_THROW(
        {
            try {
                bad.rethrow_if_failed();
            } catch (const std::runtime_error& e) {
                EXPECT_STREQ(e.what(), "descriptor table full");
                throw;
            }
        },
        std::runtime_error);
    EXPECT_TRUE(good.done());
    EXPECT_FALSE(good.failed());
    EXPECT_NO_THROW(good.rethrow_if_failed());
    EXPECT_EQ(good.end_time(), us(3));
    EXPECT_EQ(f.cpu.failed_processes(), 1u);
}

TEST(Process, NonStandardExceptionIsReportedToo) {
    HostFixture f;
    Process& p = f.spawn("p", [](ProcessContext&) { throw 42; });
    f.run();
    EXPECT_TRUE(p.failed());
    EXPECT_NE(p.error_message().find("unknown exception"), std::string::npos);
    EXPECT_THROW(p.rethrow_if_failed(), int);
}

TEST(Process, NegativeCostFailsTheProcess) {
    HostFixture f;
    Process& p = f.spawn("p", [](ProcessContext& ctx) { ctx.compute(Time::ps(-1)); });
    f.run();
    EXPECT_TRUE(p.failed());
    EXPECT_NE(p.error_message().find("negative"), std::string::npos);
}

TEST(Process, BlockingCallFromOutsideTheBodyIsRefused) {
    HostFixture f;
    ProcessContext* leaked = nullptr;
    f.spawn("p", [&](ProcessContext& ctx) {
        leaked = &ctx;
        Condition never;
        ctx.wait(never);
    });
    f.run();
    ASSERT_NE(leaked, nullptr);
    EXPECT_THROW(leaked->compute(us(1)), std::logic_error);
}

TEST(Process, ZeroCostReturnsAtOnce) {
    HostFixture f;
    Process& p = f.spawn("p", [](ProcessContext& ctx) {
        ctx.compute(Time{});
        ctx.copy(0);
    });
    f.run();
    EXPECT_TRUE(p.done());
    EXPECT_EQ(p.end_time(), Time{});
}

TEST(Process, DestroyingABlockedProcessUnwindsItsBody) {
    HostFixture f;
    Condition never;
    bool unwound = false;
    struct Sentinel {
        bool* flag;
        ~Sentinel() { *flag = true; }
    };
    auto p = std::make_unique<Process>(f.cpu, "stuck", [&](ProcessContext& ctx) {
        Sentinel s{&unwound};
        ctx.wait(never);
    });
    f.run();
    EXPECT_EQ(p->state(), Process::State::blocked);
    EXPECT_EQ(never.waiters(), 1u);
    EXPECT_EQ(f.cpu.stack_pool().in_use(), 1u);
    p.reset();
    EXPECT_TRUE(unwound);
    EXPECT_EQ(never.waiters(), 0u);
    EXPECT_EQ(f.cpu.stack_pool().in_use(), 0u);
    EXPECT_EQ(f.cpu.live_processes(), 0u);
}

TEST(Process, DestroyingAComputingProcessFreesTheCpu) {
    HostFixture f;
    auto hog = std::make_unique<Process>(f.cpu, "hog", [](ProcessContext& ctx) { ctx.compute(us(100)); });
    Process& next = f.spawn("next", [](ProcessContext& ctx) { ctx.compute(us(1)); });
    f.kernel.run_until(us(4));
    EXPECT_EQ(hog->cpu_time(), us(4));  // a cost in progress counts
    hog.reset();
    f.run();
    EXPECT_EQ(next.end_time(), us(5));
    EXPECT_EQ(f.cpu.times().user, us(5));
}

TEST(Process, JoinWaitsForAnotherProcess) {
    HostFixture f;
    Process& worker = f.spawn("worker", [](ProcessContext& ctx) { ctx.compute(us(4)); });
    Time joined;
    f.spawn("parent", [&](ProcessContext& ctx) {
        ctx.join(worker);
        joined = ctx.now();
        ctx.join(worker);  // already done: returns at once
    });
    f.run();
    EXPECT_EQ(joined, us(4));
}

}  // namespace niclab::host::test
