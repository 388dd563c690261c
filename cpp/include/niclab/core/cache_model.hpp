#pragma once
// Timing model of a set-associative cache over the NIC's SRAM (the only cacheable
// memory). It keeps tags, not data: SRAM always holds the current bytes, and the
// model only decides what an access costs.
//
// The hit check is one bit test: `resident_` has a bit per SRAM line saying whether
// that line is in the cache (`dirty_` whether it was written since), so the 64-way
// PPC440 caches cost no more to look up than a direct-mapped one. Sets and round-robin
// victims are only consulted on a miss.
#include <cstdint>
#include <vector>

#include "niclab/core/core_config.hpp"

namespace niclab::core {

class CacheModel {
public:
    void configure(const CacheConfig& cfg, uint32_t memory_bytes);
    uint32_t line_shift() const { return line_shift_; }
    uint32_t line_bytes() const { return 1u << line_shift_; }

    bool resident(uint32_t line) const { return test(resident_, line); }
    void mark_dirty(uint32_t line) { dirty_[line >> 6] |= bit(line); }
    // Bring `line` in; returns true if a dirty victim had to be written back.
    bool fill(uint32_t line);
    // Drop every line; returns how many were dirty (they must be written back).
    uint32_t invalidate_all();

    // The bits themselves, for translated code (core/translate.cpp), which tests them inline.
    const std::vector<uint64_t>& resident_bits() const { return resident_; }
    const std::vector<uint64_t>& dirty_bits() const { return dirty_; }

    uint64_t accesses = 0;
    uint64_t misses = 0;
    uint64_t writebacks = 0;

private:
    static uint64_t bit(uint32_t line) { return uint64_t(1) << (line & 63); }
    static bool test(const std::vector<uint64_t>& bits, uint32_t line) { return (bits[line >> 6] & bit(line)) != 0; }
    uint32_t line_shift_ = 5;
    uint32_t sets_ = 1;
    uint32_t ways_ = 1;
    // Per SRAM line, a bit: in the cache, and (of those) written since it came in. Bits,
    // not a byte per line: every load and store of the firmware reads one, and on a large
    // system each core's were out of the host's caches at every run (a bitset line covers
    // 16 KB of SRAM with 32-byte lines, a byte line 2 KB).
    std::vector<uint64_t> resident_, dirty_;
    std::vector<uint32_t> tags_;     // sets_ x ways_ line numbers, kNone when empty
    std::vector<uint32_t> victim_;   // round-robin pointer per set (PPC440 replacement)
};

}  // namespace niclab::core
