// The bottom half: a kernel thread woken by an interrupt handler runs before user
// processes, its costs are system time, and wakeups coalesce.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "niclab/host/kernel_thread.hpp"

#include "host_test_support.hpp"

namespace niclab::host::test {

TEST(KernelThread, WokenByAnInterruptItRunsBeforeTheInterruptedProcess) {
    HostFixture f;
    std::vector<std::string> log;
    KernelThread portals(f.cpu, "portals", [&](ProcessContext& ctx) {
        log.push_back("bh start " + std::to_string(ctx.now().ps()));
        ctx.compute(us(1));
        log.push_back("bh end " + std::to_string(ctx.now().ps()));
    });
    Process& app = f.spawn("app", [&](ProcessContext& ctx) {
        ctx.compute(us(10));
        log.push_back("app end " + std::to_string(ctx.now().ps()));
    });
    f.kernel.schedule_at(us(3), [&] { f.cpu.raise_interrupt([&](InterruptContext&) { portals.wake(); }); });
    f.run();
    // Interrupt 3..5 us, bottom half 5..6 us, then the app's remaining 7 us.
    const std::vector<std::string> expected = {"bh start 5000000", "bh end 6000000", "app end 13000000"};
    EXPECT_EQ(log, expected);
    EXPECT_EQ(app.end_time(), us(13));
    EXPECT_EQ(app.user_time(), us(10));
    EXPECT_EQ(portals.process().system_time(), us(1));
    EXPECT_EQ(portals.rounds(), 1u);
    CpuTimes t = f.cpu.times();
    EXPECT_EQ(t.user, us(10));
    EXPECT_EQ(t.system, us(1));
    EXPECT_EQ(t.interrupt, us(2));
}

TEST(KernelThread, ReadyKernelThreadGoesAheadOfReadyUserProcesses) {
    HostFixture f;
    std::vector<std::string> order;
    Process& first = f.spawn("first", [&](ProcessContext& ctx) {
        ctx.compute(us(2));
        order.push_back("first");
    });
    Process& second = f.spawn("second", [&](ProcessContext& ctx) {
        ctx.compute(us(2));
        order.push_back("second");
    });
    KernelThread kt(f.cpu, "kt", [&](ProcessContext& ctx) {
        ctx.compute(us(1));
        order.push_back("kt");
    });
    // Woken by a device event (not an interrupt) while "first" computes: it takes the
    // core at once, and "first" resumes before "second".
    f.kernel.schedule_at(us(1), [&] { kt.wake(); });
    f.run();
    const std::vector<std::string> expected = {"kt", "first", "second"};
    EXPECT_EQ(order, expected);
    EXPECT_EQ(first.end_time(), us(3));
    EXPECT_EQ(second.end_time(), us(5));
}

TEST(KernelThread, WakeupsWhileWorkingCoalesceIntoOneMoreRound) {
    HostFixture f;
    KernelThread kt(f.cpu, "kt", [](ProcessContext& ctx) { ctx.compute(us(5)); });
    for (int i : {1, 2, 3, 4}) f.kernel.schedule_at(us(i), [&] { kt.wake(); });
    f.run();
    EXPECT_EQ(kt.wakeups(), 4u);
    EXPECT_EQ(kt.rounds(), 2u);  // 1..6 us, then once more for the wakeups at 2, 3, 4 us
    EXPECT_EQ(kt.process().system_time(), us(10));
}

TEST(KernelThread, AThrowingWorkFunctionIsReported) {
    HostFixture f;
    KernelThread kt(f.cpu, "kt", [](ProcessContext&) { throw std::runtime_error("EQ overflow"); });
    f.kernel.schedule_at(us(1), [&] { kt.wake(); });
    f.run();
    EXPECT_TRUE(kt.process().failed());
    EXPECT_EQ(kt.process().error_message(), "EQ overflow");
}

TEST(KernelThread, AnIdleKernelThreadCostsNothing) {
    HostFixture f;
    KernelThread kt(f.cpu, "kt", [](ProcessContext& ctx) { ctx.compute(us(1)); });
    Process& app = f.spawn("app", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    f.run();
    EXPECT_EQ(app.end_time(), us(10));
    EXPECT_EQ(kt.process().state(), Process::State::blocked);
    EXPECT_EQ(kt.rounds(), 0u);
}

}  // namespace niclab::host::test
