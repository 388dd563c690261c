#pragma once
// Simple statistics for components: counters, running mean/variance (sums of the
// deviations from the first value), and power-of-two histograms. All integer or double arithmetic in a fixed order,
// so identical runs give identical statistics.
#include <array>
#include <cstdint>
#include <limits>

namespace niclab::sim {

// Sums of each value's deviation from the first (the shifted-data method): as accurate
// as Welford's update on data far from zero, which it replaced, without its division per
// value (a network adds one per packet delivered: 4 % of a bulk transfer's host time).
class Accumulator {
public:
    void add(double x) {
        if (n_ == 0) shift_ = x;
        ++n_;
        sum_ += x;
        const double d = x - shift_;
        sum_d_ += d;
        sum_d2_ += d * d;
        if (x < min_) min_ = x;
        if (x > max_) max_ = x;
    }
    uint64_t count() const { return n_; }
    double mean() const { return n_ ? shift_ + sum_d_ / double(n_) : 0.0; }
    double variance() const;
    double stddev() const;
    double min() const { return n_ ? min_ : 0.0; }
    double max() const { return n_ ? max_ : 0.0; }
    double sum() const { return sum_; }
    void reset() { *this = Accumulator(); }

private:
    uint64_t n_ = 0;
    double shift_ = 0, sum_d_ = 0, sum_d2_ = 0, sum_ = 0;
    double min_ = std::numeric_limits<double>::infinity();
    double max_ = -std::numeric_limits<double>::infinity();
};

// Bucket i counts values v with 2^(i-1) <= v < 2^i (bucket 0 counts v == 0).
class Log2Histogram {
public:
    static constexpr int kBuckets = 65;
    void add(uint64_t v);
    uint64_t bucket(int i) const { return buckets_[i]; }
    uint64_t count() const { return count_; }

private:
    std::array<uint64_t, kBuckets> buckets_{};
    uint64_t count_ = 0;
};

}  // namespace niclab::sim
