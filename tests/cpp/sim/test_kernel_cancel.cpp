// Cancelling events: by id, idempotently, and never hitting a newer event that
// reused the cancelled event's slot (the generation check).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <vector>

#include "niclab/sim/kernel.hpp"

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
