// Event order and the basic run loop: events fire by (time, insertion order), so
// runs are deterministic even when many events share a picosecond.
#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>
#include <vector>

#include "niclab/sim/kernel.hpp"

namespace niclab::sim {
namespace {

TEST(SimKernelOrder, FiresByTimeThenInsertionOrder) {
    Kernel k;
    std::vector<int> fired;
    k.schedule_at(Time::ns(30), [&] { fired.push_back(3); });
    k.schedule_at(Time::ns(10), [&] { fired.push_back(1); });
    k.schedule_at(Time::ns(20), [&] { fired.push_back(2); });
    k.schedule_at(Time::ns(10), [&] { fired.push_back(11); });  // same time, scheduled later
    k.run_until(Time::us(1));
    EXPECT_EQ(fired, (std::vector<int>{1, 11, 2, 3}));
    EXPECT_EQ(k.events_fired(), 4u);
}

// Many events at one time stress the heap's tie-breaking.
TEST(SimKernelOrder, ManySameTimeEventsKeepInsertionOrder) {
    Kernel k;
    std::vector<int> fired;
    constexpr int kCount = 5000;
    for (int i = 0; i < kCount; ++i) {
        // Interleave two times so the heap has to reorder.
        Time t = (i % 2) ? Time::ns(7) : Time::ns(5);
        k.schedule_at(t, [&fired, i] { fired.push_back(i); });
    }
    k.run_until(Time::ns(10));
    ASSERT_EQ(fired.size(), size_t(kCount));
    for (int i = 0; i < kCount / 2; ++i) EXPECT_EQ(fired[i], 2 * i) << "at " << i;
    for (int i = 0; i < kCount / 2; ++i) EXPECT_EQ(fired[kCount / 2 + i], 2 * i + 1) << "at " << i;
}

TEST(SimKernelOrder, NowIsTheEventTimeInsideACallback) {
    Kernel k;
    std::vector<Time> seen;
    for (int64_t t : {5, 1, 3}) k.schedule_at(Time::ns(t), [&] { seen.push_back(k.now()); });
    k.run_until(Time::ns(10));
    EXPECT_EQ(seen, (std::vector<Time>{Time::ns(1), Time::ns(3), Time::ns(5)}));
}

TEST(SimKernelOrder, SchedulingInThePastThrows) {
    Kernel k;
    k.schedule_at(Time::ns(10), [] {});
    k.run_until(Time::ns(10));
    EXPECT_THROW(k.schedule_at(Time::ns(9), [] {}), std::logic_error);
    EXPECT_NO_THROW(k.schedule_at(Time::ns(10), [] {}));  // now is not the past
}

TEST(SimKernelOrder, SchedulingBeforeTheEndOfAnEmptyRunThrows) {
    Kernel k;
    k.run_until(Time::ns(100));  // time passed even though nothing happened
    EXPECT_EQ(k.now(), Time::ns(100));
    EXPECT_THROW(k.schedule_at(Time::ns(50), [] {}), std::logic_error);
}

TEST(SimKernelOrder, CallbackMaySchedule) {
    Kernel k;
    std::vector<std::pair<int, Time>> fired;
    k.schedule_at(Time::ns(10), [&] {
        fired.emplace_back(1, k.now());
        k.schedule_in(Time::ns(5), [&] { fired.emplace_back(2, k.now()); });
        k.schedule_in(Time{}, [&] { fired.emplace_back(3, k.now()); });  // same time: after this one
    });
    k.run_until(Time::us(1));
    ASSERT_EQ(fired.size(), 3u);
    EXPECT_EQ(fired[0], std::make_pair(1, Time::ns(10)));
    EXPECT_EQ(fired[1], std::make_pair(3, Time::ns(10)));
    EXPECT_EQ(fired[2], std::make_pair(2, Time::ns(15)));
}

TEST(SimKernelOrder, RunUntilIsInclusiveAndLeavesLaterEventsPending) {
    Kernel k;
    std::vector<int> fired;
    k.schedule_at(Time::ns(10), [&] { fired.push_back(10); });
    k.schedule_at(Time::ns(20), [&] { fired.push_back(20); });
    k.schedule_at(Time::ns(21), [&] { fired.push_back(21); });
    EXPECT_EQ(k.run_until(Time::ns(20)), Time::ns(20));
    EXPECT_EQ(fired, (std::vector<int>{10, 20}));
    EXPECT_TRUE(k.has_pending_events());
    EXPECT_EQ(k.next_event_time(), Time::ns(21));
    k.run_until(Time::ns(30));
    EXPECT_EQ(fired, (std::vector<int>{10, 20, 21}));
    EXPECT_FALSE(k.has_pending_events());
    EXPECT_EQ(k.next_event_time(), Time::max());
}

TEST(SimKernelOrder, RequestStopReturnsAfterTheCurrentEvent) {
    Kernel k;
    std::vector<int> fired;
    k.schedule_at(Time::ns(10), [&] { fired.push_back(10); k.request_stop(); });
    k.schedule_at(Time::ns(10), [&] { fired.push_back(11); });
    k.schedule_at(Time::ns(20), [&] { fired.push_back(20); });
    EXPECT_EQ(k.run_until(Time::us(1)), Time::ns(10));
    EXPECT_TRUE(k.stop_requested());
    EXPECT_EQ(fired, (std::vector<int>{10}));
    // The run resumes where it stopped.
    EXPECT_EQ(k.run_until(Time::us(1)), Time::us(1));
    EXPECT_EQ(fired, (std::vector<int>{10, 11, 20}));
}

TEST(SimKernelOrder, StopWhenIdleEndsAtTheLastEvent) {
    Kernel k;
    k.schedule_at(Time::ns(10), [] {});
    k.schedule_at(Time::ns(20), [] {});
    EXPECT_EQ(k.run_until(Time::us(1), true), Time::ns(20));
    EXPECT_EQ(k.now(), Time::ns(20));
    EXPECT_EQ(k.run_until(Time::us(1)), Time::us(1)) << "without the flag, time passes to `until`";
}

TEST(SimKernelOrder, StopWhenIdleWithOnlyACancelledEventDoesNotAdvance) {
    Kernel k;
    k.cancel(k.schedule_at(Time::ns(50), [] {}));
    EXPECT_EQ(k.run_until(Time::max(), true), Time{});
}

TEST(SimKernelOrder, CountsScheduledAndFired) {
    Kernel k;
    for (int i = 0; i < 5; ++i) k.schedule_at(Time::ns(i), [] {});
    k.run_until(Time::ns(2));
    EXPECT_EQ(k.events_scheduled(), 5u);
    EXPECT_EQ(k.events_fired(), 3u);
}

// A key reserved now places an event scheduled later where it would have fired had it
// been scheduled now (the network's credits kept as times, net::Network).
TEST(SimKernelOrder, AReservedKeyFiresWhereItWasTaken) {
    Kernel k;
    std::vector<int> fired;
    const Kernel::EventKey key = k.reserve_key();
    k.schedule_at(Time::ns(10), [&] { fired.push_back(2); });
    k.schedule_at(Time::ns(5), [&] { k.schedule_reserved(Time::ns(10), key, [&] { fired.push_back(1); }, kNoNode); });
    k.run_until(Time::us(1));
    EXPECT_EQ(fired, (std::vector<int>{1, 2})) << "the reserved event sorts before one scheduled after its key was taken";
}

TEST(SimKernelOrder, PassedTellsWhetherAReservedEventWouldHaveFired) {
    Kernel k;
    std::vector<bool> seen;
    Kernel::EventKey key{};
    k.schedule_at(Time::ns(10), [&] { seen.push_back(k.passed(Time::ns(10), key, kNoNode)); });
    key = k.reserve_key();  // after the first event's, before the second's
    k.schedule_at(Time::ns(10), [&] {
        seen.push_back(k.passed(Time::ns(10), key, kNoNode));
        seen.push_back(k.passed(Time::ns(11), key, kNoNode));
        seen.push_back(k.passed(Time::ns(9), key, kNoNode));
        EXPECT_THROW(k.schedule_reserved(Time::ns(10), key, [] {}, kNoNode), std::logic_error);
    });
    k.run_until(Time::us(1));
    EXPECT_EQ(seen, (std::vector<bool>{false, true, false, true}));
}

}  // namespace
}  // namespace niclab::sim
