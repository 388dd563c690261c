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
    const size_t words = ((memory_bytes >> line_shift_) + 63) / 64;
    resident_.assign(words, 0);
    dirty_.assign(words, 0);
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
        dirty = test(dirty_, slot);
        resident_[slot >> 6] &= ~bit(slot);
        dirty_[slot >> 6] &= ~bit(slot);
    }
    slot = line;
    resident_[line >> 6] |= bit(line);
    dirty_[line >> 6] &= ~bit(line);
    ++misses;
    if (dirty) ++writebacks;
    return dirty;
}

uint32_t CacheModel::invalidate_all() {
    uint32_t dirty = 0;
    for (uint32_t& t : tags_) {
        if (t != kNone) {
            dirty += test(dirty_, t);
            resident_[t >> 6] &= ~bit(t);
            dirty_[t >> 6] &= ~bit(t);
            t = kNone;
        }
    }
    writebacks += dirty;
    return dirty;
}

}  // namespace niclab::core
