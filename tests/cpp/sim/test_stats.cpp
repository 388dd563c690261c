// Statistics helpers on data whose answers are known by hand.
#include <gtest/gtest.h>

#include <cstdint>

#include "niclab/sim/stats.hpp"

namespace niclab::sim {
namespace {

TEST(SimStatsAccumulator, KnownData) {
    Accumulator a;
    for (double x : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) a.add(x);
    EXPECT_EQ(a.count(), 8u);
    EXPECT_DOUBLE_EQ(a.sum(), 40.0);
    EXPECT_DOUBLE_EQ(a.mean(), 5.0);
    EXPECT_DOUBLE_EQ(a.variance(), 32.0 / 7.0);  // sample variance: squared deviations sum to 32
    EXPECT_DOUBLE_EQ(a.stddev() * a.stddev(), 32.0 / 7.0);
    EXPECT_DOUBLE_EQ(a.min(), 2.0);
    EXPECT_DOUBLE_EQ(a.max(), 9.0);
}

TEST(SimStatsAccumulator, EmptyAndSingle) {
    Accumulator a;
    EXPECT_EQ(a.count(), 0u);
    EXPECT_EQ(a.mean(), 0.0);
    EXPECT_EQ(a.variance(), 0.0);
    EXPECT_EQ(a.min(), 0.0);
    EXPECT_EQ(a.max(), 0.0);
    a.add(-3.5);
    EXPECT_EQ(a.mean(), -3.5);
    EXPECT_EQ(a.variance(), 0.0);
    EXPECT_EQ(a.min(), -3.5);
    EXPECT_EQ(a.max(), -3.5);
    a.reset();
    EXPECT_EQ(a.count(), 0u);
    EXPECT_EQ(a.sum(), 0.0);
}

// The shifted sums stay accurate on a large offset where the naive formula fails.
TEST(SimStatsAccumulator, LargeOffsetKeepsVariance) {
    Accumulator a;
    for (double x : {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16}) a.add(x);
    EXPECT_DOUBLE_EQ(a.mean(), 1e9 + 10);
    EXPECT_NEAR(a.variance(), 30.0, 1e-6);
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
