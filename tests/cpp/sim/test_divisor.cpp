// sim::Divisor gives the quotient and remainder of the `/` and `%` it replaces, for every
// divisor the packet path uses and at the edges of the type.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "niclab/sim/divisor.hpp"
#include "niclab/sim/random.hpp"

namespace niclab::sim {
namespace {

std::vector<uint64_t> dividends(Random& r) {
    std::vector<uint64_t> v{0, 1, 2, 63, 64, 65, 4095, 4096, 1'000'000, std::numeric_limits<uint64_t>::max(),
                            std::numeric_limits<uint64_t>::max() - 1, uint64_t(1) << 63};
    for (int i = 0; i < 2000; ++i) v.push_back(r.next_u64() >> (i % 64));
    return v;
}

TEST(SimDivisor, SameQuotientAndRemainderAsDivision) {
    Random r(7, "test.divisor");
    const auto ns = dividends(r);
    // 2800: the HyperTransport's MB/s; 64, 4: a DMA read request's bytes and tags; the
    // rest: reduced serialization fractions, powers of two and the type's edges.
    for (uint64_t d : {uint64_t(1), uint64_t(2), uint64_t(3), uint64_t(4), uint64_t(7), uint64_t(64), uint64_t(2800),
                       uint64_t(1'000'000'007), uint64_t(1) << 40, (uint64_t(1) << 63) + 1,
                       std::numeric_limits<uint64_t>::max()}) {
        const Divisor<uint64_t> div = d;
        for (uint64_t n : ns) {
            ASSERT_EQ(n / div, n / d) << n << " / " << d;
            ASSERT_EQ(n % div, n % d) << n << " % " << d;
        }
    }
    for (int i = 0; i < 200; ++i) {
        const uint64_t d = (r.next_u64() >> (i % 60)) | 1;
        const Divisor<uint64_t> div = d;
        for (uint64_t n : ns) ASSERT_EQ(n / div, n / d) << n << " / " << d;
    }
}

TEST(SimDivisor, ReadsAndAssignsAsItsInteger) {
    Divisor<uint64_t> d = 2800;
    EXPECT_EQ(uint64_t(d), 2800u);
    EXPECT_EQ(uint64_t(64'000'000) / d, 22'857u);
    d = 1000;  // a parameter set again: the next division uses the new value
    EXPECT_EQ(d.value(), 1000u);
    EXPECT_EQ(uint64_t(64'000'000) / d, 64'000u);
    d = 0;  // a zero a validation step reports, as before
    EXPECT_EQ(d, 0u);
    // Another type divides by the integer, not through the divisor.
    EXPECT_DOUBLE_EQ(1.0 / Divisor<uint64_t>(4), 0.25);
}

}  // namespace
}  // namespace niclab::sim
