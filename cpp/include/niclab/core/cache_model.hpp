#pragma once
// Timing model of a set-associative cache over the NIC's SRAM (the only cacheable
// memory). It keeps tags, not data: SRAM always holds the current bytes, and the
// model only decides what an access costs.
//
// The hit check is one byte load: `state_` has an entry per SRAM line saying
// whether that line is resident (and dirty), so the 64-way PPC440 caches cost no
// more to look up than a direct-mapped one. Sets and round-robin victims are only
// consulted on a miss.
#include <cstdint>
#include <vector>

#include "niclab/core/core_config.hpp"

namespace niclab::core {

class CacheModel {
public:
    enum : uint8_t { Absent = 0, Clean = 1, Dirty = 2 };

    void configure(const CacheConfig& cfg, uint32_t memory_bytes);
    uint32_t line_shift() const { return line_shift_; }
    uint32_t line_bytes() const { return 1u << line_shift_; }

    bool resident(uint32_t line) const { return state_[line] != Absent; }
    void mark_dirty(uint32_t line) { state_[line] = Dirty; }
    // Bring `line` in; returns true if a dirty victim had to be written back.
    bool fill(uint32_t line);
    // Drop every line; returns how many were dirty (they must be written back).
    uint32_t invalidate_all();

    uint64_t accesses = 0;
    uint64_t misses = 0;
    uint64_t writebacks = 0;

private:
    uint32_t line_shift_ = 5;
    uint32_t sets_ = 1;
    uint32_t ways_ = 1;
    std::vector<uint8_t> state_;     // per SRAM line
    std::vector<uint32_t> tags_;     // sets_ x ways_ line numbers, kNone when empty
    std::vector<uint32_t> victim_;   // round-robin pointer per set (PPC440 replacement)
};

}  // namespace niclab::core
