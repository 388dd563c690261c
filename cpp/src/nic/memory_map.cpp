#include "niclab/nic/memory_map.hpp"

#include <stdexcept>
#include <string>

namespace niclab::nic {

namespace {
// Whether [a, a + an) and [b, b + bn) share an address (in 64 bits: a range may end at 2^32).
bool meet(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) { return a < b + bn && b < a + an; }
}  // namespace

void MemoryMap::add(Range r) {
    for (const Range& o : ranges_)
        if (meet(r.base, r.size, o.base, o.size))
            throw std::invalid_argument("memory map: range at " + std::to_string(r.base) + " (+" +
                                        std::to_string(r.size) + ") overlaps one at " + std::to_string(o.base));
    if (ranges_.size() == kMaxRanges)
        throw std::invalid_argument("memory map: more than " + std::to_string(kMaxRanges) + " ranges");
    ranges_.push_back(r);
    build_pages();
}

// Made again whole at each map() (a NIC maps a handful of ranges once, when it is wired).
void MemoryMap::build_pages() {
    // The one range meeting [first, first + span), 1 + its index; 0 for none; kSeveral.
    const auto entry = [&](uint64_t first, uint64_t span) {
        uint8_t e = 0;
        for (size_t i = 0; i < ranges_.size(); ++i) {
            if (!meet(ranges_[i].base, ranges_[i].size, first, span)) continue;
            if (e != 0) return kSeveral;
            e = uint8_t(1 + i);
        }
        return e;
    };
    blocks_.clear();
    for (uint64_t p = 0; p < top_.size(); ++p) {
        top_[p] = entry(p << 24, uint64_t(1) << 24);
        if (top_[p] != kSeveral) continue;
        // A page that two ranges meet holds the last address of the lower one, so there are
        // fewer such pages than ranges (kMaxRanges): kBlock + their count fits in a byte.
        top_[p] = uint8_t(kBlock + blocks_.size());
        std::array<uint8_t, 256>& block = blocks_.emplace_back();
        for (uint64_t q = 0; q < block.size(); ++q) block[q] = entry((p << 24) | (q << 16), uint64_t(1) << 16);
    }
}

void MemoryMap::map(uint32_t base, uint32_t size, RegisterBlock& block) { add({base, size, &block, nullptr}); }
void MemoryMap::map(uint32_t base, uint32_t size, MemoryWindow& window) { add({base, size, nullptr, &window}); }

const MemoryMap::Range* MemoryMap::scan(uint32_t addr) const {
    for (const Range& r : ranges_)
        if (addr - r.base < r.size) return &r;
    return nullptr;
}

bool MemoryMap::pure_read(uint32_t addr, unsigned size) const {
    const Range* r = find(addr);
    return r && r->block && size == 4 && r->block->pure_read(addr - r->base);
}

MemoryWindow* MemoryMap::window_at(uint32_t addr) const {
    const Range* r = find(addr);
    return r ? r->window : nullptr;
}

void MemoryMap::reset_devices() const {
    for (const Range& r : ranges_)
        if (r.block) r.block->reset();
}

}  // namespace niclab::nic
