// Scheduling allocates nothing once the kernel's pools have grown to the working
// set (kernel.hpp). This binary replaces the global operator new with a counting
// one; only allocations made while `g_counting` is set are counted.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <new>

#include "niclab/sim/kernel.hpp"

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
