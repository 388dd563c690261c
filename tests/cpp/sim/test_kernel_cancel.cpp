// Cancelling events: by id, idempotently, and never hitting a newer event that
// reused the cancelled event's slot (the generation check).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <tuple>
#include <vector>

#include "niclab/sim/kernel.hpp"
#include "niclab/sim/random.hpp"

namespace niclab::sim {
namespace {

TEST(SimKernelCancel, CancelledEventDoesNotFire) {
    Kernel k;
    std::vector<int> fired;
    EventId a = k.schedule_at(Time::ns(10), [&] { fired.push_back(1); });
    k.schedule_at(Time::ns(20), [&] { fired.push_back(2); });
    k.cancel(a);
    k.run_until(Time::us(1));
    EXPECT_EQ(fired, (std::vector<int>{2}));
    EXPECT_EQ(k.events_fired(), 1u);
}

// A cancelled event is no longer pending: System::idle() and the horizon rely on it.
TEST(SimKernelCancel, CancelledEventIsNotPending) {
    Kernel k;
    EventId a = k.schedule_at(Time::ns(10), [] {});
    k.cancel(a);
    EXPECT_FALSE(k.has_pending_events());
    EXPECT_EQ(k.next_event_time(), Time::max());
}

TEST(SimKernelCancel, CancelAfterFiringIsANoOp) {
    Kernel k;
    int fired = 0;
    EventId a = k.schedule_at(Time::ns(10), [&] { ++fired; });
    k.run_until(Time::ns(10));
    k.cancel(a);
    k.cancel(a);  // twice: still harmless
    EXPECT_EQ(fired, 1);
}

TEST(SimKernelCancel, DefaultAndForeignIdsAreIgnored) {
    Kernel k;
    int fired = 0;
    k.schedule_at(Time::ns(10), [&] { ++fired; });
    k.cancel(EventId{});                 // never scheduled
    k.cancel(EventId{12345, 0});          // a slot that does not exist
    k.run_until(Time::us(1));
    EXPECT_EQ(fired, 1);
}

// A cancelled slot is reused by the next event; the stale id must not cancel it.
TEST(SimKernelCancel, StaleIdDoesNotCancelTheSlotsNewEvent) {
    Kernel k;
    std::vector<int> fired;
    EventId old_id = k.schedule_at(Time::ns(10), [&] { fired.push_back(1); });
    k.cancel(old_id);
    EventId new_id = k.schedule_at(Time::ns(15), [&] { fired.push_back(2); });
    ASSERT_EQ(new_id.slot, old_id.slot) << "the test relies on slot reuse";
    ASSERT_NE(new_id.generation, old_id.generation);
    k.cancel(old_id);
    k.run_until(Time::us(1));
    EXPECT_EQ(fired, (std::vector<int>{2}));
}

// Same after firing: the fired event's slot is reused, its id is dead.
TEST(SimKernelCancel, FiredIdDoesNotCancelTheSlotsNewEvent) {
    Kernel k;
    int fired = 0;
    EventId first = k.schedule_at(Time::ns(10), [] {});
    k.run_until(Time::ns(10));
    EventId second = k.schedule_at(Time::ns(20), [&] { ++fired; });
    ASSERT_EQ(second.slot, first.slot);
    k.cancel(first);
    k.run_until(Time::ns(20));
    EXPECT_EQ(fired, 1);
}

TEST(SimKernelCancel, CallbackCanCancelALaterEvent) {
    Kernel k;
    std::vector<int> fired;
    EventId later = k.schedule_at(Time::ns(20), [&] { fired.push_back(2); });
    k.schedule_at(Time::ns(10), [&] { fired.push_back(1); k.cancel(later); });
    k.run_until(Time::us(1));
    EXPECT_EQ(fired, (std::vector<int>{1}));
}

// Cancelling destroys the callback's captures now, not when its time comes.
TEST(SimKernelCancel, CancelReleasesTheCallback) {
    Kernel k;
    auto token = std::make_shared<int>(0);
    EventId id = k.schedule_at(Time::ns(10), [token] {});
    EXPECT_EQ(token.use_count(), 2);
    k.cancel(id);
    EXPECT_EQ(token.use_count(), 1);
}

}  // namespace
}  // namespace niclab::sim

// The cancel flag (another thread's Cancel): a run that never ends by itself stops
// with Cancelled within kCancelPoll steps of the flag being set, and a run with an
// unset flag fires exactly what a run without one fires.
namespace niclab::sim {
namespace {

struct Ticker {
    Kernel& k;
    uint64_t ticks = 0;
    std::atomic<bool>* raise_at_tick = nullptr;
    uint64_t raise_tick = 0;
    void tick() {
        ++ticks;
        if (raise_at_tick && ticks == raise_tick) raise_at_tick->store(true);
        k.schedule_in(Time::ns(1), [this] { tick(); });
    }
};

// Per-node queues (with lookahead) keep each queue's first event apart and count the
// cancelled ones among the rest: random schedules and cancels, of a queue's first and of
// the others, on nodes' NICs and routers and on no node, fire every live event once, in
// key order (time, when made, node, order made), and no cancelled one.
TEST(SimKernelCancel, RandomCancelsInNodeQueuesLeaveTheLiveEventsInKeyOrder) {
    for (uint32_t seed = 1; seed <= 20; ++seed) {
        Kernel k;
        constexpr uint32_t kNodes = 4;
        k.set_lookahead(Time::ns(1), kNodes);
        Random random(seed, "cancel test");
        struct Ev {
            EventId id;
            Time at, made;
            uint32_t node;
            uint64_t seq;
            bool cancelled = false, fired = false;
        };
        std::vector<Ev> evs;
        const auto key = [&](const Ev& e) { return std::tuple(e.at, e.made, e.node, e.seq); };
        std::function<void(size_t)> on_fire;
        const auto schedule = [&](Time at) {
            const uint32_t n = uint32_t(random.below(kNodes + 1));
            const uint32_t owner = n == kNodes ? kNoNode : (random.below(2) ? n | Kernel::kRouterEvent : n);
            const size_t i = evs.size();
            evs.push_back(Ev{{}, at, k.now(), n == kNodes ? kNoNode : n, evs.size()});
            evs[i].id = k.schedule_at(at, [&on_fire, i] { on_fire(i); }, owner);
        };
        on_fire = [&](size_t i) {
            ASSERT_FALSE(evs[i].cancelled) << "seed " << seed << ": a cancelled event fired";
            ASSERT_FALSE(evs[i].fired);
            for (const Ev& e : evs)
                if (!e.cancelled && !e.fired) {
                    ASSERT_LE(key(evs[i]), key(e)) << "seed " << seed << ": fired out of order";
                }
            evs[i].fired = true;
            if (evs.size() < 400)
                for (uint64_t n = random.below(4); n > 0; --n) schedule(k.now() + Time::ps(int64_t(random.below(4)) * 500));
            for (uint64_t n = random.below(3); n > 0; --n) {
                Ev& victim = evs[random.below(evs.size())];
                if (victim.fired || victim.cancelled) continue;
                victim.cancelled = true;
                k.cancel(victim.id);
            }
        };
        for (int n = 0; n < 40; ++n) schedule(Time::ps(int64_t(random.below(8)) * 500));
        k.run_until(Time::us(1));
        for (const Ev& e : evs) EXPECT_TRUE(e.cancelled || e.fired) << "seed " << seed << ": a live event never fired";
        EXPECT_EQ(k.events_fired(), uint64_t(std::count_if(evs.begin(), evs.end(), [](const Ev& e) { return e.fired; })));
    }
}

TEST(SimKernelCancelFlag, ASetFlagStopsTheRunWithinAPollPeriod) {
    Kernel k;
    std::atomic<bool> cancel{false};
    k.set_cancel(&cancel);
    Ticker t{k, 0, &cancel, 10000};
    k.schedule_at(Time::ns(1), [&] { t.tick(); });
    EXPECT_THROW(k.run_until(Time::max()), Cancelled);
    EXPECT_GE(t.ticks, 10000u);
    EXPECT_LE(t.ticks, 10000u + Kernel::kCancelPoll);
}

TEST(SimKernelCancelFlag, AnUnsetFlagChangesNothing) {
    auto run = [](bool with_flag) {
        Kernel k;
        std::atomic<bool> cancel{false};
        if (with_flag) k.set_cancel(&cancel);
        Ticker t{k};
        k.schedule_at(Time::ns(1), [&] { t.tick(); });
        k.run_until(Time::us(50));
        return std::pair{t.ticks, k.events_fired()};
    };
    EXPECT_EQ(run(true), run(false));
    EXPECT_EQ(run(true).first, 50000u);
}

}  // namespace
}  // namespace niclab::sim
