// Runnables (NIC cores) run ahead of global time only up to the horizon: the next
// event, or the end of the run. A fake runnable whose local clock advances in
// fixed steps shows exactly where the kernel lets it stop.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "niclab/sim/kernel.hpp"

namespace niclab::sim {
namespace {

class Stepper : public Runnable {
public:
    explicit Stepper(Time step) : step_(step) {}

    Time local_time() const override { return local_; }
    bool active() const override { return active_; }
    void run(Kernel& k) override {
        ++runs;
        while (active_ && local_ < k.horizon()) {
            horizons.push_back(k.horizon());
            local_ += step_;
            if (on_step) on_step(k, local_);
        }
    }

    bool active_ = true;
    int runs = 0;
    std::vector<Time> horizons;             // the horizon seen before each step
    std::function<void(Kernel&, Time)> on_step;

private:
    Time local_{};
    Time step_;
};

// A Stepper that counts the kernel's looks at it (active() and local_time()).
class Counted : public Stepper {
public:
    using Stepper::Stepper;
    bool active() const override {
        ++asked;
        return Stepper::active();
    }
    Time local_time() const override {
        ++asked;
        return Stepper::local_time();
    }
    mutable int asked = 0;
};

TEST(SimKernelRunnable, RunsOnlyUpToTheNextEvent) {
    Kernel k;
    Stepper s(Time::ns(30));
    k.add_runnable(&s);
    std::vector<Time> local_at_event;
    for (int64_t t : {100, 250}) k.schedule_at(Time::ns(t), [&] { local_at_event.push_back(s.local_time()); });
    k.run_until(Time::ns(400));
    // Each event finds the runnable at the first step at or after it: 120 >= 100, 270 >= 250.
    EXPECT_EQ(local_at_event, (std::vector<Time>{Time::ns(120), Time::ns(270)}));
    EXPECT_EQ(s.local_time(), Time::ns(420));
    for (Time h : s.horizons) EXPECT_TRUE(h == Time::ns(100) || h == Time::ns(250) || h == Time::ns(400));
    EXPECT_EQ(k.now(), Time::ns(400));
}

TEST(SimKernelRunnable, NeverStepsFromBeyondTheHorizon) {
    Kernel k;
    Stepper s(Time::ns(7));
    k.add_runnable(&s);
    for (int64_t t = 5; t < 1000; t += 13)
        k.schedule_at(Time::ns(t), [&, t] {
            EXPECT_GE(s.local_time(), Time::ns(t));
            EXPECT_LT(s.local_time() - Time::ns(t), Time::ns(7));
        });
    k.run_until(Time::ns(1000));
    EXPECT_GE(s.local_time(), Time::ns(1000));
    EXPECT_LT(s.local_time(), Time::ns(1007));
}

// An event the runnable schedules for earlier than the current horizon pulls the
// horizon in at once, so the runnable stops in time for it.
TEST(SimKernelRunnable, SchedulingAnEarlierEventShrinksTheHorizon) {
    Kernel k;
    Stepper s(Time::ns(10));
    k.add_runnable(&s);
    Time local_at_event{};
    bool scheduled = false;
    s.on_step = [&](Kernel& kk, Time local) {
        if (!scheduled && local == Time::ns(60)) {
            scheduled = true;
            kk.schedule_at(Time::ns(85), [&] { local_at_event = s.local_time(); });
        }
    };
    k.schedule_at(Time::ns(500), [] {});
    k.run_until(Time::ns(1000));
    ASSERT_TRUE(scheduled);
    EXPECT_EQ(local_at_event, Time::ns(90));
    // Steps before the new event saw 500, then 85.
    EXPECT_EQ(s.horizons[0], Time::ns(500));
    EXPECT_EQ(s.horizons[6], Time::ns(85));
}

TEST(SimKernelRunnable, InactiveRunnableIsNotRun) {
    Kernel k;
    Stepper s(Time::ns(10));
    s.active_ = false;
    k.add_runnable(&s);
    k.schedule_at(Time::ns(50), [] {});
    k.run_until(Time::ns(100));
    EXPECT_EQ(s.runs, 0);
    EXPECT_EQ(s.local_time(), Time{});
}

// An event can wake a sleeping runnable: the kernel drives it again after the event.
TEST(SimKernelRunnable, EventCanActivateARunnable) {
    Kernel k;
    Stepper s(Time::ns(10));
    s.active_ = false;
    k.add_runnable(&s);
    k.schedule_at(Time::ns(50), [&] {
        s.active_ = true;
        k.wake(&s);
    });
    k.run_until(Time::ns(100));
    EXPECT_EQ(s.local_time(), Time::ns(100));
}

// Asleep runnables cost nothing per event: once found asleep they are not asked again
// until woken, however many events fire.
TEST(SimKernelRunnable, AsleepRunnablesAreNotVisited) {
    Kernel k;
    std::vector<std::unique_ptr<Counted>> idle;
    for (int i = 0; i < 100; ++i) {
        idle.push_back(std::make_unique<Counted>(Time::ns(10)));
        idle.back()->active_ = false;
        k.add_runnable(idle.back().get());
    }
    for (int i = 1; i <= 1000; ++i) k.schedule_at(Time::ns(i), [] {});
    k.run_until(Time::ns(2000));
    for (const auto& r : idle) EXPECT_LE(r->asked, 3);  // found asleep once, nothing after
    // Woken, one runs again; the others stay off the list.
    idle[42]->active_ = true;
    k.wake(idle[42].get());
    k.schedule_at(Time::ns(2500), [] {});
    k.run_until(Time::ns(3000));
    EXPECT_EQ(idle[42]->local_time(), Time::ns(3000));
    EXPECT_LE(idle[7]->asked, 3);
}

// A runnable woken during a pass by one driven before it in that pass is driven in
// the same pass if it comes later in registration order, as a scan of all would.
TEST(SimKernelRunnable, WokenDuringAPassKeepsRegistrationOrder) {
    Kernel k;
    Stepper a(Time::ns(10)), b(Time::ns(10)), c(Time::ns(10));
    b.active_ = c.active_ = false;
    k.add_runnable(&a);
    k.add_runnable(&b);
    k.add_runnable(&c);
    k.run_until(Time::ns(5));  // b and c are found asleep and leave the list
    std::vector<char> order;
    a.on_step = [&](Kernel& kk, Time local) {
        order.push_back('a');
        if (local == Time::ns(20)) {
            c.active_ = b.active_ = true;
            kk.wake(&c);
            kk.wake(&b);
        }
    };
    b.on_step = [&](Kernel&, Time) { order.push_back('b'); };
    c.on_step = [&](Kernel&, Time) { order.push_back('c'); };
    k.schedule_at(Time::ns(30), [] {});
    k.run_until(Time::ns(30));
    // a runs to the event at 30 (two steps, waking b and c), then b, then c, in one pass.
    EXPECT_EQ(std::string(order.begin(), order.end()), "aabbbccc");
}

TEST(SimKernelRunnable, RemovedRunnableIsNotRun) {
    Kernel k;
    Stepper a(Time::ns(10)), b(Time::ns(10));
    k.add_runnable(&a);
    k.add_runnable(&b);
    k.remove_runnable(&a);
    k.run_until(Time::ns(100));
    EXPECT_EQ(a.runs, 0);
    EXPECT_EQ(b.local_time(), Time::ns(100));
}

TEST(SimKernelRunnable, RequestStopFromARunnableEndsTheRun) {
    Kernel k;
    Stepper s(Time::ns(10));
    k.add_runnable(&s);
    int fired = 0;
    k.schedule_at(Time::ns(50), [&] { ++fired; });
    s.on_step = [](Kernel& kk, Time local) {
        if (local == Time::ns(30)) kk.request_stop();
    };
    k.run_until(Time::ns(100));
    EXPECT_EQ(s.local_time(), Time::ns(30));
    EXPECT_EQ(fired, 0);
}

// An event scheduled and cancelled during a burst leaves a horizon behind; the run
// must still take the runnable to its end.
TEST(SimKernelRunnable, CancelledEventDoesNotEndTheRunEarly) {
    Kernel k;
    Stepper s(Time::ns(10));
    k.add_runnable(&s);
    s.on_step = [](Kernel& kk, Time local) {
        if (local == Time::ns(30)) kk.cancel(kk.schedule_at(Time::ns(50), [] {}));
    };
    k.run_until(Time::ns(100));
    EXPECT_EQ(s.local_time(), Time::ns(100));
    EXPECT_EQ(k.now(), Time::ns(100));
}

// A runnable that stopped far past the horizon (a long stall) is parked: the events
// before its local time do not visit it at all. The same runnable with small steps,
// always at the horizon, is driven at every event.
TEST(SimKernelRunnable, ARunnableFarAheadIsNotVisitedPerEvent) {
    Kernel k;
    Counted far(Time::us(10)), near(Time::ns(1));
    k.add_runnable(&far);
    k.add_runnable(&near);
    for (int i = 1; i <= 1000; ++i) k.schedule_at(Time::ns(i * 5), [] {});
    k.run_until(Time::ns(5000));
    EXPECT_EQ(far.local_time(), Time::us(10));
    EXPECT_LE(far.asked, 10) << "looked at per event while parked";
    EXPECT_GE(near.runs, 1000);
}

// The horizon can grow during a pass (a runnable cancels the next event). A parked
// runnable it now passes is run in that same pass if it comes later in registration
// order, and in the next one if the pass is already past it: as a scan would.
TEST(SimKernelRunnable, AHorizonGrowingDuringAPassRunsWhatAScanWould) {
    Kernel k;
    Stepper z(Time::ns(170)), a(Time::ns(10)), b(Time::ns(170));
    k.add_runnable(&z);
    k.add_runnable(&a);
    k.add_runnable(&b);
    k.schedule_at(Time::ns(100), [] {});
    EventId e2 = k.schedule_at(Time::ns(160), [] {});
    Time z_at, b_at;
    k.schedule_at(Time::ns(400), [&] { z_at = z.local_time(), b_at = b.local_time(); });
    a.on_step = [&](Kernel& kk, Time local) {
        if (local == Time::ns(130)) kk.cancel(e2);  // the horizon goes from 160 to 400
    };
    k.run_until(Time::ns(400));
    EXPECT_EQ(b_at, Time::ns(510)) << "b, after a in the pass, ran to the grown horizon before the event";
    EXPECT_EQ(z_at, Time::ns(170)) << "z, before a in the pass, waits for the next pass";
    EXPECT_EQ(a.local_time(), Time::ns(400));
}

// Running to quiescence: the run ends when the last runnable falls asleep.
TEST(SimKernelRunnable, StopWhenIdleEndsWhenTheLastRunnableSleeps) {
    Kernel k;
    Stepper s(Time::ns(10));
    k.add_runnable(&s);
    s.on_step = [&s](Kernel&, Time local) {
        if (local == Time::ns(130)) s.active_ = false;
    };
    k.schedule_at(Time::ns(40), [] {});
    EXPECT_EQ(k.run_until(Time::max(), true), Time::ns(130));
    EXPECT_EQ(k.now(), Time::ns(130));
}

}  // namespace
}  // namespace niclab::sim
