#include "niclab/core/cache_model.hpp"

#include <bit>
#include <stdexcept>

namespace niclab::core {

namespace {
constexpr uint32_t kNone = UINT32_MAX;
}

void CacheModel::configure(const CacheConfig& cfg, uint32_t memory_bytes) {
    if (!std::has_single_bit(cfg.line_bytes) || cfg.line_bytes < 4)
        throw std::invalid_argument("cache line size must be a power of two >= 4");
    if (cfg.ways == 0 || cfg.size_bytes % (cfg.line_bytes * cfg.ways) != 0)
        throw std::invalid_argument("cache size must be a multiple of line size x ways");
    line_shift_ = uint32_t(std::countr_zero(cfg.line_bytes));
    ways_ = cfg.ways;
    sets_ = cfg.size_bytes / (cfg.line_bytes * cfg.ways);
    state_.assign(memory_bytes >> line_shift_, Absent);
    tags_.assign(size_t(sets_) * ways_, kNone);
    victim_.assign(sets_, 0);
    accesses = misses = writebacks = 0;
}

bool CacheModel::fill(uint32_t line) {
    uint32_t set = line % sets_;
    uint32_t& way = victim_[set];
    uint32_t& slot = tags_[size_t(set) * ways_ + way];
    way = (way + 1 == ways_) ? 0 : way + 1;
    bool dirty = false;
    if (slot != kNone) {
        dirty = state_[slot] == Dirty;
        state_[slot] = Absent;
    }
    slot = line;
    state_[line] = Clean;
    ++misses;
    if (dirty) ++writebacks;
    return dirty;
}

uint32_t CacheModel::invalidate_all() {
    uint32_t dirty = 0;
    for (uint32_t& t : tags_) {
        if (t != kNone) {
            dirty += state_[t] == Dirty;
            state_[t] = Absent;
            t = kNone;
        }
    }
    writebacks += dirty;
    return dirty;
}

}  // namespace niclab::core
