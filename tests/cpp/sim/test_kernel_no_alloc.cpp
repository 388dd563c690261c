// Scheduling allocates nothing once the kernel's pools have grown to the working
// set (kernel.hpp). This binary replaces the global operator new with a counting
// one; only allocations made while `g_counting` is set are counted.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <new>
#include <vector>

#include "niclab/sim/kernel.hpp"
#include "niclab/sim/recycling_map.hpp"
#include "niclab/sim/ring_queue.hpp"

#include "counting_new.hpp"

namespace {
int* volatile g_sink = nullptr;  // escapes an allocation so the optimizer cannot elide it
}  // namespace

namespace niclab::sim {
namespace {

// Schedules `n` events (some cancelled, some scheduling a follow-up) and fires them.
void workload(Kernel& k, int n, uint64_t& sum) {
    const Time base = k.now();
    for (int i = 0; i < n; ++i) {
        EventId id = k.schedule_at(base + Time::ns(1 + i % 97), [&k, &sum, i] {
            sum += uint64_t(i);
            if (i % 5 == 0) k.schedule_in(Time::ns(3), [&sum] { ++sum; });
        });
        if (i % 7 == 0) k.cancel(id);
    }
    k.run_until(base + Time::us(1));
}

TEST(SimKernelNoAlloc, SteadyStateSchedulingDoesNotAllocate) {
    Kernel k;
    uint64_t sum = 0;
    constexpr int kEvents = 5000;  // beyond the initial reservation, so the pools grow first
    g_counting = true;
    g_allocations = 0;
    workload(k, kEvents, sum);     // warm up: the pools grow, and the counter sees it
    g_counting = false;
    EXPECT_GT(g_allocations, 0u);

    g_counting = true;
    g_allocations = 0;
    workload(k, kEvents, sum);
    g_counting = false;
    EXPECT_EQ(g_allocations, 0u);
    EXPECT_GT(k.events_fired(), uint64_t(kEvents));
}

// The counter itself works (otherwise the test above proves nothing).
TEST(SimKernelNoAlloc, CounterSeesAllocations) {
    g_counting = true;
    g_allocations = 0;
    g_sink = new int(3);
    g_counting = false;
    delete g_sink;
    EXPECT_EQ(g_allocations, 1u);
}

}  // namespace
}  // namespace niclab::sim

namespace niclab::sim {
namespace {

// A queue that keeps up to `depth` entries in flight, `rounds` times over: what a host's
// interrupts or a driver's commands do, message after message.
template <typename Queue>
uint64_t cycle(Queue& q, int depth, int rounds, uint64_t& next, uint64_t& expected) {
    uint64_t wrong = 0;
    for (int r = 0; r < rounds; ++r) {
        for (int i = 0; i < depth; ++i) q.push_back(next++);
        for (int i = 0; i < depth; ++i) {
            wrong += q.front() != expected++;
            q.pop_front();
        }
    }
    return wrong;
}

// RingQueue (sim/ring_queue.hpp) keeps its order across its growth and its wrap, and
// allocates nothing once it has held its most; std::deque, used the same way, does.
TEST(SimRingQueueNoAlloc, AQueueInSteadyStateDoesNotAllocateWhereADequeDoes) {
    uint64_t next = 0, expected = 0;
    RingQueue<uint64_t> ring;
    EXPECT_EQ(cycle(ring, 37, 3, next, expected), 0u);  // grows to 64 entries
    g_counting = true;
    g_allocations = 0;
    EXPECT_EQ(cycle(ring, 5, 1000, next, expected), 0u);  // its front and back wrap many times
    EXPECT_EQ(cycle(ring, 37, 100, next, expected), 0u);
    g_counting = false;
    EXPECT_EQ(g_allocations, 0u);
    EXPECT_TRUE(ring.empty());

    std::deque<uint64_t> deque;
    next = expected = 0;
    cycle(deque, 37, 3, next, expected);
    g_counting = true;
    g_allocations = 0;
    EXPECT_EQ(cycle(deque, 5, 1000, next, expected), 0u);
    g_counting = false;
    EXPECT_GT(g_allocations, 0u);
}

// What an entry holds goes when it is popped, not when its place is reused.
TEST(SimRingQueueNoAlloc, PoppingReleasesWhatTheEntryHeld) {
    RingQueue<std::shared_ptr<int>> q;
    auto held = std::make_shared<int>(7);
    q.push_back(held);
    q.push_back(std::make_shared<int>(8));
    EXPECT_EQ(held.use_count(), 2);
    EXPECT_EQ(*q.front(), 7);
    q.pop_front();
    EXPECT_EQ(held.use_count(), 1);
    EXPECT_EQ(*q.front(), 8);
    EXPECT_EQ(q.size(), 1u);
}

// erase takes out the first equal entry wherever it is (across the wrap too), the others
// keeping their order, and says whether there was one.
TEST(SimRingQueueNoAlloc, EraseTakesOutOneEntryAndKeepsTheOrder) {
    RingQueue<int> q;
    for (int i = 0; i < 6; ++i) q.push_back(i);
    for (int i = 0; i < 5; ++i) q.pop_front();  // the next pushes wrap around the ring's end
    for (int i = 6; i < 12; ++i) q.push_back(i);
    EXPECT_TRUE(q.erase(8));
    EXPECT_TRUE(q.erase(5));   // the front
    EXPECT_TRUE(q.erase(11));  // the back
    EXPECT_FALSE(q.erase(8));  // gone
    EXPECT_FALSE(q.erase(42));
    std::vector<int> left;
    for (; !q.empty(); q.pop_front()) left.push_back(q.front());
    EXPECT_EQ(left, (std::vector<int>{6, 7, 9, 10}));
    EXPECT_FALSE(q.erase(6));  // an empty queue
}

// Iteration goes from the front to the back across the wrap, and entries can be changed
// through it; back() is the newest.
TEST(SimRingQueueNoAlloc, IterationGoesFromFrontToBackAcrossTheWrap) {
    RingQueue<int> q;
    for (int i = 0; i < 7; ++i) q.push_back(i);
    for (int i = 0; i < 5; ++i) q.pop_front();
    for (int i = 7; i < 12; ++i) q.push_back(i);  // past the ring's end
    for (int& v : q) v *= 10;
    const RingQueue<int>& c = q;
    std::vector<int> seen;
    for (int v : c) seen.push_back(v);
    EXPECT_EQ(seen, (std::vector<int>{50, 60, 70, 80, 90, 100, 110}));
    EXPECT_EQ(q.back(), 110);
    EXPECT_EQ(q[2], 70);
}

// Things in flight, added and erased message after message: once the map has held its
// most at once, it allocates nothing, and it finds, orders and erases as a std::map does.
TEST(SimRecyclingMapNoAlloc, AMapOfThingsInFlightDoesNotAllocateInSteadyState) {
    RecyclingMap<uint64_t, std::vector<int>> m;
    uint64_t next = 1;
    const auto round = [&](int in_flight) {
        uint64_t wrong = 0;
        for (int i = 0; i < in_flight; ++i) m.emplace(next + i, std::vector<int>(3, int(next + i)));
        for (int i = in_flight; i-- > 0;) {  // completed newest first: erasures from the middle
            auto it = m.find(next + i);
            wrong += it == m.end() || it->second.size() != 3 || it->second[0] != int(next + i);
            m.erase(it);
        }
        next += in_flight;
        return wrong;
    };
    EXPECT_EQ(round(9), 0u);
    EXPECT_EQ(m.size(), 0u);
    g_counting = true;
    g_allocations = 0;
    for (int r = 0; r < 100; ++r) EXPECT_EQ(round(1 + r % 9), 0u);
    g_counting = false;
    // Only the values' own vectors allocate: one per entry added.
    uint64_t added = 0;
    for (int r = 0; r < 100; ++r) added += 1 + r % 9;
    EXPECT_EQ(g_allocations, added);

    m.emplace(7, {1});
    m.emplace(3, {2});
    m.emplace(5, {3});
    m.emplace(3, {9});  // taken: as std::map::emplace, nothing changes
    std::vector<uint64_t> keys;
    for (auto it = m.begin(); it != m.end();) {
        keys.push_back(it->first);
        it = it->first == 5 ? m.erase(it) : std::next(it);
    }
    EXPECT_EQ(keys, (std::vector<uint64_t>{3, 5, 7}));
    EXPECT_EQ(m.find(3)->second, std::vector<int>{2});
    EXPECT_EQ(m.count(5), 0u);
    EXPECT_EQ(m.erase(uint64_t(7)), 1u);
    EXPECT_EQ(m.erase(uint64_t(7)), 0u);
    EXPECT_EQ(m.size(), 1u);
}

// A std::map used the same way allocates at every insertion (so the test above can fail).
TEST(SimRecyclingMapNoAlloc, AStdMapUsedTheSameWayAllocates) {
    std::map<uint64_t, int> m;
    for (uint64_t i = 0; i < 9; ++i) m.emplace(i, 0);
    m.clear();
    g_counting = true;
    g_allocations = 0;
    for (uint64_t i = 0; i < 9; ++i) m.emplace(i, 0);
    g_counting = false;
    EXPECT_EQ(g_allocations, 9u);
}

}  // namespace
}  // namespace niclab::sim
