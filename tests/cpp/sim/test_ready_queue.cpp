// sim::ReadyQueue visits runnables in the order a heap of (pass, registration order)
// did: random pushes, visits, removals and new passes against such a reference.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <utility>

#include "niclab/sim/random.hpp"
#include "niclab/sim/ready_queue.hpp"

namespace niclab::sim {
namespace {

TEST(SimReadyQueue, VisitsInPassThenRegistrationOrder) {
    ReadyQueue q;
    q.reserve_orders(200);
    q.push(150, true);
    q.push(7, false);
    q.push(3, true);
    q.push(64, false);
    EXPECT_TRUE(q.has_current());
    EXPECT_EQ(q.front(), 7u);
    EXPECT_EQ(q.pop(), 7u);
    EXPECT_EQ(q.pop(), 64u);
    EXPECT_FALSE(q.has_current());
    EXPECT_EQ(q.pop(), 3u);  // then the next pass's, lowest first
    EXPECT_EQ(q.pop(), 150u);
    EXPECT_TRUE(q.empty());
}

TEST(SimReadyQueue, SameOrderAsAHeapOfPassAndOrder) {
    constexpr uint64_t kOrders = 9000;  // more than one summary word
    Random r(11, "test.ready_queue");
    ReadyQueue q;
    q.reserve_orders(kOrders);
    std::set<std::pair<int, uint64_t>> ref;  // (0: this pass, 1: the next; order)
    auto in_ref = [&](uint64_t o) { return ref.count({0, o}) || ref.count({1, o}); };
    for (int step = 0; step < 200'000; ++step) {
        const uint64_t what = r.below(100);
        if (what < 45) {
            const uint64_t o = r.below(kOrders);
            if (in_ref(o)) continue;  // a runnable is ready once at most
            const bool next = r.below(2) == 1;
            q.push(o, next);
            ref.insert({next ? 1 : 0, o});
        } else if (what < 85) {
            ASSERT_EQ(q.empty(), ref.empty());
            if (ref.empty()) continue;
            ASSERT_EQ(q.has_current(), ref.begin()->first == 0);
            ASSERT_EQ(q.front(), ref.begin()->second);
            ASSERT_EQ(q.pop(), ref.begin()->second);
            ref.erase(ref.begin());
        } else if (what < 92) {
            const uint64_t o = r.below(kOrders);
            q.erase(o);
            ref.erase({0, o});
            ref.erase({1, o});
        } else if (what < 97) {
            if (q.has_current()) {
                EXPECT_THROW(q.advance(), std::logic_error);
                continue;
            }
            q.advance();
            std::set<std::pair<int, uint64_t>> moved;
            for (auto [p, o] : ref) moved.insert({p - 1, o});
            ref = moved;
        } else {
            q.merge();
            std::set<std::pair<int, uint64_t>> moved;
            for (auto [p, o] : ref) moved.insert({0, o});
            ref = moved;
        }
    }
    std::set<uint64_t> all;
    q.for_each([&](uint64_t o) { all.insert(o); });
    std::set<uint64_t> expected;
    for (auto [p, o] : ref) expected.insert(o);
    EXPECT_EQ(all, expected);
}

}  // namespace
}  // namespace niclab::sim
