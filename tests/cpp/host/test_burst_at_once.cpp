// A compute burst whose end would be the next thing to happen ends at once in the
// process's fiber (HostCpu::burst_at_once, sim::Kernel::fire_inline), against every burst
// ending in its own event (Kernel::set_fire_inline(false)). Everything must be the same:
// every process's end, user and system time, the cores' accounting, every span of host
// activity, each core's accounting, what each process saw of the clock after each step, and the kernel's counts
// of events scheduled and fired - with processes handing work to one another through a
// condition, sleeping, preempted by a realtime process and by device interrupts, on one
// core and on several, and over a run stopped partway and resumed.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "host_test_support.hpp"
#include "niclab/host/condition.hpp"
#include "niclab/sim/activity.hpp"

namespace niclab::host::test {
namespace {

using Span = std::tuple<int64_t, int64_t, uint32_t, int>;

struct Outcome {
    std::vector<int64_t> seen;  // each process's clock after each step, in order
    std::vector<int64_t> ends, user, system;
    std::vector<Span> spans;
    CpuTimes times;
    std::vector<int64_t> per_core;  // each core's user, system and interrupt time
    uint64_t fired = 0, scheduled = 0, inline_fired = 0;
    int64_t now = 0;
};

struct Scenario {
    unsigned cores = 1;
    bool interrupts = false;
    bool realtime = false;
    std::vector<Time> stops;  // the run is stopped at each, then goes on
    bool switch_costs = true;  // without, a process starts in the dispatch that picks it
};

Outcome run(bool at_once, const Scenario& sc) {
    HostConfig cfg;
    cfg.cores = sc.cores;
    if (sc.switch_costs) {
        cfg.context_switch = ns(300);
        cfg.address_space_switch = ns(700);
    }
    HostFixture f(cfg);
    f.kernel.set_fire_inline(at_once);
    sim::ActivityLog log;
    f.kernel.set_activity(&log);
    Outcome o;
    Condition work;
    int queued = 0;
    // A producer of many short bursts (a PIO message is a dozen of a few nanoseconds),
    // some of them syscalls and copies, handing work to two consumers.
    f.spawn("producer", [&](ProcessContext& ctx) {
        for (int i = 0; i < 40; ++i) {
            for (int w = 0; w < 12; ++w) ctx.compute(ns(6 + w));
            if (i % 5 == 0) ctx.syscall(ns(40));
            ctx.copy(88);
            ++queued;
            work.notify_one();
            o.seen.push_back(ctx.now().ps());
            if (i % 7 == 3) ctx.sleep_for(ns(250));
        }
    });
    for (int c = 0; c < 2; ++c)
        f.spawn("consumer", [&](ProcessContext& ctx) {
            for (int taken = 0; taken < 20; ++taken) {
                ctx.wait_for(work, [&] { return queued > 0; });
                --queued;
                for (int w = 0; w < 5; ++w) ctx.compute(ns(9));
                o.seen.push_back(ctx.now().ps());
            }
        });
    if (sc.realtime)
        f.spawn("tick", [&](ProcessContext& ctx) {
            for (int i = 0; i < 6; ++i) {
                ctx.sleep_for(ns(900));
                ctx.compute(ns(120));
                o.seen.push_back(ctx.now().ps());
            }
        }, Priority::realtime);
    if (sc.interrupts)
        for (int i = 1; i <= 5; ++i)
            f.kernel.schedule_at(ns(700 * i + 13), [&f, &o] {
                f.cpu.raise_interrupt([&o](InterruptContext& irq) {
                    irq.charge(ns(150));
                    o.seen.push_back(irq.now().ps());
                });
            });
    for (Time stop : sc.stops) {
        f.kernel.run_until(stop);
        o.seen.push_back(f.kernel.now().ps());
        o.seen.push_back(int64_t(f.cpu.times().busy().ps()));
    }
    f.run();
    for (const auto& p : f.procs) {
        EXPECT_TRUE(p->done()) << p->name();
        o.ends.push_back(p->end_time().ps());
        o.user.push_back(p->user_time().ps());
        o.system.push_back(p->system_time().ps());
    }
    for (const sim::ActivitySpan& s : log.spans()) o.spans.emplace_back(s.start.ps(), s.end.ps(), s.node, int(s.kind));
    o.times = f.cpu.times();
    for (unsigned c = 0; c < sc.cores; ++c) {
        const CpuTimes t = f.cpu.core_times(c);
        o.per_core.insert(o.per_core.end(), {t.user.ps(), t.system.ps(), t.interrupt.ps()});
    }
    o.fired = f.kernel.events_fired();
    o.scheduled = f.kernel.events_scheduled();
    o.inline_fired = f.kernel.inline_events_fired();
    o.now = f.kernel.now().ps();
    return o;
}

void expect_same(const Scenario& sc) {
    const Outcome a = run(true, sc), b = run(false, sc);
    EXPECT_GT(a.inline_fired, 0u);  // the fast path ran
    EXPECT_EQ(b.inline_fired, 0u);
    EXPECT_EQ(a.seen, b.seen);
    EXPECT_EQ(a.ends, b.ends);
    EXPECT_EQ(a.user, b.user);
    EXPECT_EQ(a.system, b.system);
    EXPECT_EQ(a.spans, b.spans);
    EXPECT_EQ(a.times.user, b.times.user);
    EXPECT_EQ(a.times.system, b.times.system);
    EXPECT_EQ(a.times.interrupt, b.times.interrupt);
    EXPECT_EQ(a.times.interrupts, b.times.interrupts);
    EXPECT_EQ(a.times.elapsed, b.times.elapsed);
    EXPECT_EQ(a.per_core, b.per_core);
    EXPECT_EQ(a.fired, b.fired);
    EXPECT_EQ(a.scheduled, b.scheduled);
    EXPECT_EQ(a.now, b.now);
}

TEST(BurstAtOnce, OneCoreHandingWorkOnIsTheSameAsAnEventPerBurst) { expect_same({}); }

TEST(BurstAtOnce, FourCoresIsTheSame) {
    expect_same({.cores = 4, .stops = {}});
    // Processes started in one dispatch, each running before the next is picked: the
    // first's bursts may not end at once while the others wait to be started.
    expect_same({.cores = 4, .stops = {}, .switch_costs = false});
}

TEST(BurstAtOnce, InterruptsAndARealtimeProcessPreemptingIsTheSame) {
    expect_same({.cores = 1, .interrupts = true, .realtime = true, .stops = {}});
    expect_same({.cores = 3, .interrupts = true, .realtime = true, .stops = {}});
    expect_same({.cores = 3, .interrupts = true, .realtime = true, .stops = {}, .switch_costs = false});
}

TEST(BurstAtOnce, ARunStoppedPartwayIsTheSame) {
    // A stop inside a chain of short bursts: the run ends where the events would have.
    expect_same({.cores = 2, .interrupts = true, .stops = {ns(101), ns(733), Time::ps(1'500'001), us(3)}});
}

TEST(BurstAtOnce, ABurstAnEventComesBeforeIsNotEndedAtOnce) {
    // An interrupt at 3 us inside a 10 us burst: the burst must stay an event (the
    // interrupt pushes its end back), whatever the switch says.
    for (bool at_once : {true, false}) {
        HostFixture f;
        f.kernel.set_fire_inline(at_once);
        Process& p = f.spawn("app", [](ProcessContext& ctx) { ctx.compute(us(10)); });
        f.kernel.schedule_at(us(3), [&] { f.cpu.raise_interrupt({}); });
        f.run();
        EXPECT_EQ(p.end_time(), us(10) + f.cpu.config().interrupt_entry + f.cpu.config().interrupt_exit);
        EXPECT_EQ(f.kernel.inline_events_fired(), 0u);
    }
}

TEST(BurstAtOnce, ALoneProcessEndsEveryBurstAtOnce) {
    HostFixture f;
    Process& p = f.spawn("app", [](ProcessContext& ctx) {
        for (int i = 0; i < 100; ++i) ctx.compute(ns(10));
    });
    f.run();
    EXPECT_EQ(p.end_time(), us(1));
    EXPECT_EQ(p.user_time(), us(1));
    // Nothing else is there to come first, from the dispatch event that starts it on.
    EXPECT_EQ(f.kernel.inline_events_fired(), 100u);
}

}  // namespace
}  // namespace niclab::host::test
