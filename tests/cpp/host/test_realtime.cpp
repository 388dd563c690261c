// The realtime class (seed 003 §8.4: the communication process runs under a real-time
// policy so that a computing process never delays it): a ready realtime process takes
// the core from a computing user process at once, interrupts still take it from both,
// and the user process's compute moves back by exactly the time taken from it.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "host_test_support.hpp"

namespace niclab::host::test {

namespace {

Time irq_cost(const HostFixture& f) { return f.cpu.config().interrupt_entry + f.cpu.config().interrupt_exit; }

}  // namespace

TEST(Realtime, PreemptsAComputingUserProcess) {
    HostFixture f;
    Process& user = f.spawn("compute", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    Time woke;
    Process& rt = f.spawn(
        "comms",
        [&](ProcessContext& ctx) {
            ctx.sleep_until(us(3));
            woke = ctx.now();
            ctx.compute(us(2));
        },
        Priority::realtime);
    f.kernel.run_until(us(4));
    EXPECT_EQ(user.state(), Process::State::preempted);
    EXPECT_EQ(rt.state(), Process::State::computing);
    f.run();
    EXPECT_EQ(woke, us(3));  // not after the user process's compute
    EXPECT_EQ(rt.end_time(), us(5));
    // Pushed back by exactly the realtime work; its own time is unchanged.
    EXPECT_EQ(user.end_time(), us(12));
    EXPECT_EQ(user.user_time(), us(10));
    EXPECT_EQ(rt.user_time(), us(2));  // user mode, not system time
    EXPECT_EQ(rt.system_time(), Time{});
    EXPECT_EQ(f.cpu.times().user, us(12));
}

TEST(Realtime, SystemCallsOfARealtimeProcessAlsoPreempt) {
    HostFixture f;
    Process& user = f.spawn("compute", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    f.spawn(
        "comms",
        [](ProcessContext& ctx) {
            ctx.sleep_until(us(1));
            ctx.syscall(us(1));
        },
        Priority::realtime);
    f.run();
    EXPECT_EQ(user.end_time(), us(10) + us(1) + f.cpu.config().null_trap);
}

TEST(Realtime, InterruptsPreemptBothAndTheUserProcessPaysForBoth) {
    HostFixture f;
    const Time irq = irq_cost(f);
    Process& user = f.spawn("compute", [](ProcessContext& ctx) { ctx.compute(us(20)); });
    Process& rt = f.spawn(
        "comms",
        [](ProcessContext& ctx) {
            ctx.sleep_until(us(3));
            ctx.compute(us(4));
        },
        Priority::realtime);
    // One interrupt while the realtime process computes, one while the user process does.
    f.kernel.schedule_at(us(4), [&] { f.cpu.raise_interrupt([](InterruptContext&) {}); });
    f.kernel.schedule_at(us(15), [&] { f.cpu.raise_interrupt([](InterruptContext&) {}); });
    f.kernel.run_until(us(5));
    EXPECT_TRUE(f.cpu.in_interrupt());
    EXPECT_EQ(rt.state(), Process::State::preempted);
    EXPECT_EQ(user.state(), Process::State::preempted);
    f.run();
    EXPECT_EQ(rt.end_time(), us(7) + irq);          // its own interrupt only
    EXPECT_EQ(user.end_time(), us(24) + irq + irq);   // the realtime work and both interrupts
    EXPECT_EQ(user.user_time(), us(20));
    EXPECT_EQ(f.cpu.times().interrupts, 2u);
}

TEST(Realtime, AProcessWokenByAnInterruptRunsBeforeTheInterruptedUserProcess) {
    HostFixture f;
    const Time irq = irq_cost(f);
    Condition event;
    bool posted = false;
    Time woke;
    Process& user = f.spawn("compute", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    Process& rt = f.spawn(
        "comms",
        [&](ProcessContext& ctx) {
            ctx.wait_for(event, [&] { return posted; });
            woke = ctx.now();
            ctx.compute(us(1));
        },
        Priority::realtime);
    f.kernel.schedule_at(us(2), [&] {
        f.cpu.raise_interrupt([&](InterruptContext&) {
            posted = true;
            event.notify_all();
        });
    });
    f.run();
    EXPECT_EQ(woke, us(2) + irq);
    EXPECT_EQ(rt.end_time(), us(3) + irq);
    EXPECT_EQ(user.end_time(), us(11) + irq);
}

TEST(Realtime, EqualClassesDoNotPreemptEachOther) {
    HostFixture f;
    Process& a = f.spawn("a", [](ProcessContext& ctx) { ctx.compute(us(10)); }, Priority::realtime);
    Process& b = f.spawn(
        "b",
        [](ProcessContext& ctx) {
            ctx.sleep_until(us(2));
            ctx.compute(us(3));
        },
        Priority::realtime);
    f.run();
    EXPECT_EQ(a.end_time(), us(10));
    EXPECT_EQ(b.end_time(), us(13));
    // And user processes still take turns.
    HostFixture g;
    Process& u1 = g.spawn("u1", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    Process& u2 = g.spawn("u2", [](ProcessContext& ctx) {
        ctx.sleep_until(us(2));
        ctx.compute(us(3));
    });
    g.run();
    EXPECT_EQ(u1.end_time(), us(10));
    EXPECT_EQ(u2.end_time(), us(13));
}

TEST(Realtime, KernelThreadsOutrankRealtime) {
    HostFixture f;
    Process& rt = f.spawn("comms", [](ProcessContext& ctx) { ctx.compute(us(10)); }, Priority::realtime);
    Process& k = f.spawn(
        "kthread",
        [](ProcessContext& ctx) {
            ctx.sleep_until(us(2));
            ctx.compute(us(1));
        },
        Priority::kernel);
    f.run();
    EXPECT_EQ(k.end_time(), us(3));
    EXPECT_EQ(rt.end_time(), us(11));
}

TEST(Realtime, AProcessRaisesItsOwnClass) {
    HostFixture f;
    Process& user = f.spawn("compute", [](ProcessContext& ctx) { ctx.compute(us(10)); });
    Process& comms = f.spawn("comms", [](ProcessContext& ctx) {
        ctx.set_priority(Priority::realtime);
        ctx.sleep_until(us(13));  // "later" computes then
        ctx.compute(us(1));
    });
    Process& later = f.spawn("later", [](ProcessContext& ctx) {
        ctx.sleep_until(us(11));
        ctx.compute(us(5));
    });
    f.run();
    EXPECT_EQ(comms.priority(), Priority::realtime);
    EXPECT_EQ(user.end_time(), us(10));
    EXPECT_EQ(comms.end_time(), us(14));  // took the core from "later" at 13 us
    EXPECT_EQ(later.end_time(), us(17));
}

TEST(Realtime, OnlyUserAndRealtimeChangeClass) {
    HostFixture f;
    std::string error;
    Process& p = f.spawn("app", [&](ProcessContext& ctx) {
        try {
            ctx.set_priority(Priority::kernel);
        } catch (const std::invalid_argument& e) {
            error = e.what();
        }
    });
    f.run();
    EXPECT_TRUE(p.done());
    EXPECT_NE(error.find("'app'"), std::string::npos) << error;
}

TEST(Realtime, SameScenarioSameTimes) {
    auto scenario = [] {
        HostFixture f;
        std::vector<Time> ends;
        for (int i = 0; i < 3; ++i) f.spawn(std::string(1, char('a' + i)), [](ProcessContext& ctx) { ctx.compute(us(5)); });
        for (int i = 0; i < 3; ++i)
            f.spawn(
                std::string(1, char('x' + i)),
                [i](ProcessContext& ctx) {
                    ctx.sleep_until(us(1 + 2 * i));
                    ctx.compute(us(1));
                },
                Priority::realtime);
        f.kernel.schedule_at(us(4), [&] { f.cpu.raise_interrupt([](InterruptContext&) {}); });
        f.run();
        for (auto& p : f.procs) ends.push_back(p->end_time());
        return ends;
    };
    EXPECT_EQ(scenario(), scenario());
}

}  // namespace niclab::host::test
