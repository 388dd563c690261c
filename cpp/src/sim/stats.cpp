#include "niclab/sim/stats.hpp"

#include <bit>

namespace niclab::sim {

void Log2Histogram::add(uint64_t v) {
    ++buckets_[v == 0 ? 0 : 64 - std::countl_zero(v)];
    ++count_;
}

}  // namespace niclab::sim
