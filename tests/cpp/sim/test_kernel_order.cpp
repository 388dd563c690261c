// Event order and the basic run loop: events fire by (time, insertion order), so
// runs are deterministic even when many events share a picosecond.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>
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

// The kernel keeps a queue per node, per router and for events of no node, and a tree
// over their first events (with lookahead); one queue without. Either way events fire
// in key order: time, when they were made, node, then the order made. Here against a
// plain ordered set, with ties, cancellations and events scheduled as others fire, over
// a node count that leaves the tree with empty leaves.
void expect_key_order(bool per_node) {
    constexpr uint32_t kNodes = 37;
    Kernel k;
    if (per_node) k.set_lookahead(Time::ns(1), kNodes, {});
    using Key = std::tuple<int64_t, int64_t, uint32_t, uint64_t>;  // time, made, node, order made
    std::set<Key> model;
    std::vector<std::pair<Key, EventId>> ids;
    std::vector<uint64_t> fired;
    std::mt19937_64 pick(7), pick_model(7);  // the same choices, drawn in firing order
    uint64_t made = 0;
    auto owner_of = [](uint64_t r) {
        const uint32_t n = uint32_t(r % (kNodes + 1));
        if (n == kNodes) return kNoNode;
        return (r >> 8) % 3 == 0 ? n | Kernel::kRouterEvent : n;
    };
    auto node_of = [](uint32_t owner) { return owner == kNoNode ? kNoNode : owner & ~Kernel::kRouterEvent; };
    std::function<void(uint64_t)> fire = [&](uint64_t id) {
        fired.push_back(id);
        const uint64_t r = pick();
        if (r % 2 == 0) return;  // every other one schedules another, at its time or later
        const uint32_t owner = owner_of(r >> 1);
        const uint64_t next = made++;
        k.schedule_at(k.now() + Time::ps(int64_t((r >> 20) % 4)), [&fire, next] { fire(next); }, owner);
    };
    for (int i = 0; i < 3000; ++i) {
        const uint64_t r = pick();
        const uint32_t owner = owner_of(r);
        const Time at = Time::ps(int64_t((r >> 16) % 200));
        const uint64_t id = made++;
        const EventId e = k.schedule_at(at, [&fire, id] { fire(id); }, owner);
        const Key key{at.ps(), 0, node_of(owner), id};
        model.insert(key);
        ids.emplace_back(key, e);
    }
    for (size_t i = 0; i < ids.size(); i += 3) {  // a third cancelled, some of them first in their queue
        k.cancel(ids[i].second);
        model.erase(ids[i].first);
    }
    k.run_until(Time::ns(1));
    // The model fires the same way: its least key, then the same draw.
    std::vector<uint64_t> want;
    uint64_t model_made = 3000;
    for (int i = 0; i < 3000; ++i) pick_model();
    while (!model.empty()) {
        const Key key = *model.begin();
        model.erase(model.begin());
        want.push_back(std::get<3>(key));
        const uint64_t r = pick_model();
        if (r % 2 == 0) continue;
        const uint32_t owner = owner_of(r >> 1);
        model.insert(Key{std::get<0>(key) + int64_t((r >> 20) % 4), std::get<0>(key), node_of(owner), model_made++});
    }
    EXPECT_EQ(fired, want);
    EXPECT_GT(fired.size(), 2000u);
    EXPECT_FALSE(k.has_pending_events());
}

TEST(SimKernelOrder, EventsOfManyNodesFireInKeyOrder) { expect_key_order(true); }
TEST(SimKernelOrder, EventsInOneQueueFireInKeyOrder) { expect_key_order(false); }

}  // namespace
}  // namespace niclab::sim
