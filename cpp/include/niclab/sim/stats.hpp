#pragma once
// Simple statistics for components: durations summed exactly, and power-of-two
// histograms. Integer arithmetic in a fixed order, so identical runs give identical
// statistics.
#include <array>
#include <cstdint>

#include "niclab/sim/time.hpp"

namespace niclab::sim {

// Durations (a packet's latency): summed exactly in whole picoseconds and read in
// nanoseconds. Integer sums need no division per value (the network adds one per packet
// delivered), and the mean is exact however many values come in.
class TimeStats {
public:
    void add(Time d) {
        ++n_;
        sum_ += d;
        if (d < min_) min_ = d;
        if (d > max_) max_ = d;
    }
    uint64_t count() const { return n_; }
    Time sum() const { return sum_; }
    // In nanoseconds; 0 while empty.
    double mean() const { return n_ ? double(sum_.ps()) / double(n_) / 1e3 : 0.0; }
    double min() const { return n_ ? min_.as_ns() : 0.0; }
    double max() const { return n_ ? max_.as_ns() : 0.0; }
    void reset() { *this = TimeStats(); }

private:
    uint64_t n_ = 0;
    Time sum_{}, min_ = Time::max(), max_{};
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
