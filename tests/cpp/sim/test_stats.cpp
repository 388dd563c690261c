// Statistics helpers on data whose answers are known by hand.
#include <gtest/gtest.h>

#include <cstdint>

#include "niclab/sim/stats.hpp"

namespace niclab::sim {
namespace {

TEST(SimStatsTimeStats, KnownData) {
    TimeStats a;
    for (int64_t ps : {2000, 4000, 4000, 4001, 5000, 5000, 7000, 9000}) a.add(Time::ps(ps));
    EXPECT_EQ(a.count(), 8u);
    EXPECT_EQ(a.sum(), Time::ps(40001));
    EXPECT_DOUBLE_EQ(a.mean(), 40001.0 / 8 / 1000);  // ns
    EXPECT_DOUBLE_EQ(a.min(), 2.0);
    EXPECT_DOUBLE_EQ(a.max(), 9.0);
}

TEST(SimStatsTimeStats, EmptyAndSingle) {
    TimeStats a;
    EXPECT_EQ(a.count(), 0u);
    EXPECT_EQ(a.mean(), 0.0);
    EXPECT_EQ(a.min(), 0.0);
    EXPECT_EQ(a.max(), 0.0);
    a.add(Time::ps(3500));
    EXPECT_EQ(a.mean(), 3.5);
    EXPECT_EQ(a.min(), 3.5);
    EXPECT_EQ(a.max(), 3.5);
    a.reset();
    EXPECT_EQ(a.count(), 0u);
    EXPECT_EQ(a.sum(), Time{});
}

// The sum is exact: a picosecond on top of a second, a million times over, is all there.
TEST(SimStatsTimeStats, SumIsExact) {
    TimeStats a;
    for (int i = 0; i < 1'000'000; ++i) a.add(Time::ps(1'000'000'000'001));
    EXPECT_EQ(a.sum(), Time::ps(1'000'000'000'001'000'000));
    EXPECT_DOUBLE_EQ(a.mean(), 1'000'000'000.001);
}

TEST(SimStatsHistogram, PowerOfTwoBuckets) {
    Log2Histogram h;
    for (uint64_t v : {0ull, 1ull, 2ull, 3ull, 4ull, 7ull, 8ull, 1023ull, 1024ull, ~0ull}) h.add(v);
    EXPECT_EQ(h.count(), 10u);
    EXPECT_EQ(h.bucket(0), 1u);   // 0
    EXPECT_EQ(h.bucket(1), 1u);   // 1
    EXPECT_EQ(h.bucket(2), 2u);   // 2, 3
    EXPECT_EQ(h.bucket(3), 2u);   // 4, 7
    EXPECT_EQ(h.bucket(4), 1u);   // 8
    EXPECT_EQ(h.bucket(10), 1u);  // 1023
    EXPECT_EQ(h.bucket(11), 1u);  // 1024
    EXPECT_EQ(h.bucket(64), 1u);  // 2^64 - 1
    uint64_t total = 0;
    for (int i = 0; i < Log2Histogram::kBuckets; ++i) total += h.bucket(i);
    EXPECT_EQ(total, h.count());
}

}  // namespace
}  // namespace niclab::sim
