// Scheduling allocates nothing once the kernel's pools have grown to the working
// set (kernel.hpp). This binary replaces the global operator new with a counting
// one; only allocations made while `g_counting` is set are counted.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <deque>
#include <memory>
#include <new>

#include "niclab/sim/kernel.hpp"
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

}  // namespace
}  // namespace niclab::sim
