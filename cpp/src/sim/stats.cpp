#include "niclab/sim/stats.hpp"

#include <bit>
#include <cmath>


namespace niclab::sim {

void Accumulator::add(double x) {
    ++n_;
    sum_ += x;
    double d = x - mean_;
    mean_ += d / double(n_);
    m2_ += d * (x - mean_);
    if (x < min_) min_ = x;
    if (x > max_) max_ = x;
}

double Accumulator::stddev() const { return std::sqrt(variance()); }

void Log2Histogram::add(uint64_t v) {
    ++buckets_[v == 0 ? 0 : 64 - std::countl_zero(v)];
    ++count_;
}

}  // namespace niclab::sim
