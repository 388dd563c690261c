// Lanes: events scheduled into a lane wait outside the heap while no core is awake and
// fire straight from it in runs. Nothing about what fires may change: random cascades of
// events in lanes and in the heap, with ties, cancellations, cores woken and put to
// sleep, stops and runs cut short, fire the same events at the same times in the same
// order, and cores see the same, with lanes on as with every event through the heap.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "niclab/sim/kernel.hpp"

namespace niclab::sim {
namespace {

// A core of node 0 that steps 7 ns at a time and writes down, at each step, how many of
// its node's events it has seen fire; it goes back to sleep after 12 steps.
class Core : public Runnable {
public:
    Time local_time() const override { return local_; }
    bool active() const override { return steps_left_ > 0; }
    void run(Kernel& k) override {
        while (steps_left_ > 0 && local_ < k.horizon()) {
            seen.emplace_back(local_.ps(), *node0_fired);
            local_ += Time::ns(7);
            --steps_left_;
        }
    }
    void wake_at(Kernel& k) {
        if (local_ < k.now()) local_ = k.now();
        steps_left_ = 12;
        k.wake(this);
    }
    const uint64_t* node0_fired = nullptr;
    std::vector<std::tuple<int64_t, uint64_t>> seen;

private:
    Time local_{};
    int steps_left_ = 12;
};

struct Scenario {
    // What fired: (time, event number, node); what the core saw; and the kernel's counts.
    std::vector<std::tuple<int64_t, int, uint32_t>> fired;
    std::vector<std::tuple<int64_t, uint64_t>> seen;
    uint64_t events_fired = 0, events_scheduled = 0, from_lanes = 0;
    int64_t end = 0;
};

// A cascade: each event writes itself down and schedules one (or two) more, at once, a
// nanosecond later or at random, on either node, into a lane or the heap; now and then it
// cancels a pending one, wakes the core or stops the run. Cross-node events come at least
// `lookahead` after now (the model's promise, as net::Network keeps it).
struct Cascade {
    Kernel k;
    Core core;
    uint64_t node0_fired = 0;
    Time lookahead;
    Kernel::Lane lane_ids[5];
    std::mt19937_64 rng;
    Scenario out;
    std::vector<EventId> pending;
    int next_number = 0, budget = 4000;

    Cascade(bool lanes, uint64_t seed, Time la) : lookahead(la), rng(seed) {
        k.set_lanes(lanes);
        core.node0_fired = &node0_fired;
        k.add_runnable(&core);
        k.set_runnable_node(&core, 0);
        if (lookahead > Time{}) k.set_lookahead(lookahead, 2);
        lane_ids[0] = k.new_lane();
        lane_ids[1] = k.new_lane();
        lane_ids[2] = lane_ids[0];
        lane_ids[3] = lane_ids[1];
        lane_ids[4] = Kernel::kNoLane;
    }
    uint64_t pick(uint64_t n) { return uint64_t(rng() % n); }
    void add(Time at, uint32_t node) {
        const int number = next_number++;
        pending.push_back(k.schedule_at(at, [this, number, node] { fire(number, node); }, node, lane_ids[pick(5)]));
    }
    void fire(int number, uint32_t node) {
        out.fired.emplace_back(k.now().ps(), number, node);
        if (node == 0) ++node0_fired;
        if (--budget <= 0) return;
        for (uint64_t c = pick(8) == 0 ? 2 : 1; c > 0; --c) {
            const uint32_t to = uint32_t(pick(2));
            Time delay = pick(4) == 0 ? Time{} : Time::ps(int64_t(pick(4) == 0 ? 1000 : 1 + pick(40000)));
            if (to != node && delay < lookahead) delay = lookahead + Time::ps(int64_t(pick(3)));
            add(k.now() + delay, to);
        }
        if (pick(10) == 0 && !pending.empty()) k.cancel(pending[pick(pending.size())]);
        if (pick(300) == 0) core.wake_at(k);
        if (pick(150) == 0) k.request_stop();
    }
};

Scenario run(bool lanes, uint64_t seed, Time lookahead) {
    Cascade c(lanes, seed, lookahead);
    for (int i = 0; i < 40; ++i) c.add(Time::ps(int64_t(c.pick(200000))), uint32_t(c.pick(2)));
    // Runs cut at fixed times: a lane must stop at the end of each.
    for (Time until = Time::ns(50); c.k.has_pending_events() || c.core.active(); until += Time::ns(50)) {
        c.k.run_until(until);
        if (until > Time::ms(10)) break;
    }
    Scenario out = c.out;
    out.seen = c.core.seen;
    out.events_fired = c.k.events_fired();
    out.events_scheduled = c.k.events_scheduled();
    out.from_lanes = c.k.lane_events_fired();
    out.end = c.k.now().ps();
    return out;
}

TEST(SimKernelLanes, RandomCascadesFireTheSameWithAndWithoutLanes) {
    uint64_t from_lanes = 0;
    for (uint64_t seed = 1; seed <= 40; ++seed)
        for (Time lookahead : {Time{}, Time::ns(2)}) {
            SCOPED_TRACE("seed " + std::to_string(seed) + ", lookahead " + std::to_string(lookahead.ps()) + " ps");
            const Scenario heap = run(false, seed, lookahead), lanes = run(true, seed, lookahead);
            ASSERT_GT(heap.fired.size(), 100u);
            EXPECT_EQ(lanes.fired, heap.fired);
            EXPECT_EQ(lanes.seen, heap.seen);
            EXPECT_EQ(lanes.events_fired, heap.events_fired);
            EXPECT_EQ(lanes.events_scheduled, heap.events_scheduled);
            EXPECT_EQ(lanes.end, heap.end);
            EXPECT_EQ(heap.from_lanes, 0u);
            from_lanes += lanes.from_lanes;
        }
    EXPECT_GT(from_lanes, 1000u);  // and the lanes did fire some of them themselves
}

TEST(SimKernelLanes, ALanesEventsFireInARunWithoutTheHeap) {
    Kernel k;
    const Kernel::Lane lane = k.new_lane();
    std::vector<int64_t> times;
    for (int i = 0; i < 100; ++i) k.schedule_at(Time::ns(i), [&] { times.push_back(k.now().as_ns()); }, 0, lane);
    k.schedule_at(Time::ns(50), [&] { times.push_back(-1); }, 0);  // a heap event among them
    k.run_until(Time::max());
    ASSERT_EQ(times.size(), 101u);
    EXPECT_EQ(times[50], 50);
    EXPECT_EQ(times[51], -1);  // scheduled after the lane's event of the same time and node
    EXPECT_EQ(times[52], 51);
    EXPECT_EQ(k.events_fired(), 101u);
    EXPECT_EQ(k.lane_events_fired(), 98u);  // all but the two that stood in the heap first
}

TEST(SimKernelLanes, AnEventThatWouldPassManyInItsLaneWaitsInTheHeapAndFiresInItsPlace) {
    Kernel k;
    const Kernel::Lane lane = k.new_lane();
    std::vector<int64_t> times;
    for (int i = 100; i < 200; ++i) k.schedule_at(Time::ns(i), [&] { times.push_back(k.now().as_ns()); }, 0, lane);
    k.schedule_at(Time::ns(50), [&] { times.push_back(k.now().as_ns()); }, 0, lane);   // passes all 100
    k.schedule_at(Time::ns(199), [&] { times.push_back(-k.now().as_ns()); }, 0, lane);  // passes none
    k.run_until(Time::max());
    ASSERT_EQ(times.size(), 102u);
    EXPECT_EQ(times.front(), 50);
    EXPECT_EQ(times[100], 199);
    EXPECT_EQ(times[101], -199);
    EXPECT_EQ(k.lane_events_fired(), 100u);  // all but the one in the heap and the lane's first
}

// A lane keeps a callable in its entry (sim::SmallCall, 16 bytes of captures); a larger one
// waits in the heap with the key it was given, so it fires in the same place.
TEST(SimKernelLanes, ACallableTooLargeForTheLaneWaitsInTheHeapAndFiresInItsPlace) {
    static_assert(!SmallCall::fits<decltype([a = std::array<uint64_t, 3>{}] { (void)a; })>);
    Kernel k;
    const Kernel::Lane lane = k.new_lane();
    std::vector<int64_t> order;
    for (int i = 1; i <= 10; ++i) k.schedule_at(Time::ns(i), [&order, i] { order.push_back(i); }, 0, lane);
    const std::array<int64_t, 3> big{-5, 7, 9};
    k.schedule_at(Time::ns(5), [&order, big] { order.push_back(big[0]); }, 0, lane);  // after the 5 made before it
    for (int i = 11; i <= 12; ++i) k.schedule_at(Time::ns(i), [&order, i] { order.push_back(i); }, 0, lane);
    k.run_until(Time::max());
    EXPECT_EQ(order, (std::vector<int64_t>{1, 2, 3, 4, 5, -5, 6, 7, 8, 9, 10, 11, 12}));
    EXPECT_EQ(k.events_fired(), 13u);
    EXPECT_EQ(k.lane_events_fired(), 10u);  // not the large one, nor the two firsts that stood in the heap
}

// A lane's event keeps the id it was given wherever it waits: in its lane, or in the heap
// after a waking core moved the lanes' events there; cancelling a fired one does nothing.
TEST(SimKernelLanes, ALaneEventIsCancelledByItsIdInItsLaneAndAfterAFlushToTheHeap) {
    Kernel k;
    Core core;
    uint64_t fired_count = 0;
    core.node0_fired = &fired_count;
    k.add_runnable(&core);
    k.run_until(Time::ns(100));  // the core's 12 steps: it sleeps from then on
    ASSERT_FALSE(core.active());
    const Kernel::Lane lane = k.new_lane();
    std::vector<int> order;
    std::vector<EventId> ids;
    for (int i = 1; i <= 6; ++i) ids.push_back(k.schedule_at(Time::ns(100 + i), [&order, i] { order.push_back(i); }, 0, lane));
    k.cancel(ids[2]);  // in its lane
    k.schedule_at(Time::ns(101), [&] { core.wake_at(k); }, 0);  // flushes the lane into the heap
    k.schedule_at(Time::ns(102), [&] { k.cancel(ids[4]); }, 0);
    k.run_until(Time::ns(103));
    EXPECT_EQ(k.lane_events_fired(), 0u);  // event 1 stood in the heap; the rest went there
    k.cancel(ids[0]);  // fired: nothing
    k.run_until(Time::max());
    EXPECT_EQ(order, (std::vector<int>{1, 2, 4, 6}));
}

TEST(SimKernelLanes, ARunStopsALaneAtItsEndAndLeavesTheRestPending) {
    Kernel k;
    const Kernel::Lane lane = k.new_lane();
    int fired = 0;
    for (int i = 1; i <= 10; ++i) k.schedule_at(Time::ns(i), [&] { ++fired; }, 0, lane);
    k.run_until(Time::ns(4));
    EXPECT_EQ(fired, 4);
    EXPECT_EQ(k.now(), Time::ns(4));
    EXPECT_EQ(k.next_event_time(), Time::ns(5));
    k.run_until(Time::max());
    EXPECT_EQ(fired, 10);
}

TEST(SimKernelLanes, CancellingALanesFirstEventMovesItsPlaceInTheHeap) {
    Kernel k;
    const Kernel::Lane lane = k.new_lane();
    std::vector<int> order;
    const EventId first = k.schedule_at(Time::ns(1), [&] { order.push_back(1); }, 0, lane);
    k.schedule_at(Time::ns(3), [&] { order.push_back(3); }, 0, lane);
    k.schedule_at(Time::ns(2), [&] { order.push_back(2); }, 0);
    k.cancel(first);
    EXPECT_EQ(k.next_event_time(), Time::ns(2));
    k.run_until(Time::max());
    EXPECT_EQ(order, (std::vector<int>{2, 3}));
}

// An event keyed as made later (key_made_at: net::Network sending a packet ahead on a busy
// cable) fires after the events made before then and before those made then, in a lane
// as in the heap.
TEST(SimKernelLanes, AnEventKeyedAsMadeLaterFiresBeforeTheEventsMadeThen) {
    for (bool lanes : {true, false}) {
        SCOPED_TRACE(lanes ? "lanes" : "heap");
        Kernel k;
        k.set_lanes(lanes);
        const Kernel::Lane lane = k.new_lane();
        std::vector<char> order;
        auto at50 = [&](char name) { return [&order, name] { order.push_back(name); }; };
        k.schedule_at(Time::ns(0), [&] {
            k.schedule_reserved(Time::ns(50), k.key_made_at(Time::ns(10)), at50('x'), 1, lane);
        }, 0);
        k.schedule_at(Time::ns(5), [&] { k.schedule_at(Time::ns(50), at50('z'), 1, lane); }, 0);
        k.schedule_at(Time::ns(10), [&] { k.schedule_at(Time::ns(50), at50('y'), 1, lane); }, 0);
        k.run_until(Time::max());
        EXPECT_EQ(std::string(order.begin(), order.end()), "zxy");
    }
}

}  // namespace
}  // namespace niclab::sim
