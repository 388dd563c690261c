#include "niclab/sim/stats.hpp"

#include <algorithm>
#include <bit>
#include <cmath>


namespace niclab::sim {

double Accumulator::variance() const {
    if (n_ < 2) return 0.0;
    // Rounding can leave a hair below zero for identical values.
    return std::max(0.0, (sum_d2_ - sum_d_ * sum_d_ / double(n_)) / double(n_ - 1));
}

double Accumulator::stddev() const { return std::sqrt(variance()); }

void Log2Histogram::add(uint64_t v) {
    ++buckets_[v == 0 ? 0 : 64 - std::countl_zero(v)];
    ++count_;
}

}  // namespace niclab::sim
