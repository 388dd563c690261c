#include "niclab/nic/memory_map.hpp"

#include <stdexcept>
#include <string>

namespace niclab::nic {

void MemoryMap::add(Range r) {
    for (const Range& o : ranges_)
        if (uint64_t(r.base) < uint64_t(o.base) + o.size && uint64_t(o.base) < uint64_t(r.base) + r.size)
            throw std::invalid_argument("memory map: range at " + std::to_string(r.base) + " (+" +
                                        std::to_string(r.size) + ") overlaps one at " + std::to_string(o.base));
    ranges_.push_back(r);
}

void MemoryMap::map(uint32_t base, uint32_t size, RegisterBlock& block) { add({base, size, &block, nullptr}); }
void MemoryMap::map(uint32_t base, uint32_t size, MemoryWindow& window) { add({base, size, nullptr, &window}); }

const MemoryMap::Range* MemoryMap::find(uint32_t addr) const {
    for (const Range& r : ranges_)
        if (addr - r.base < r.size) return &r;
    return nullptr;
}

bool MemoryMap::read(uint32_t addr, unsigned size, uint32_t& value, Time& latency) const {
    const Range* r = find(addr);
    if (r && r->window) {
        ++window_reads_;
        return r->window->read(addr - r->base, size, value, latency);
    }
    latency = timing_.read_latency;  // a register, or a hole the core faults on after the same stall
    if (!r || size != 4) return false;
    return r->block->read(addr - r->base, value);
}

bool MemoryMap::pure_read(uint32_t addr, unsigned size) const {
    const Range* r = find(addr);
    return r && r->block && size == 4 && r->block->pure_read(addr - r->base);
}

bool MemoryMap::write(uint32_t addr, unsigned size, uint32_t value, Time& occupancy) const {
    const Range* r = find(addr);
    if (r && r->window) {
        ++window_writes_;
        return r->window->write(addr - r->base, size, value, occupancy);
    }
    occupancy = timing_.write_occupancy;
    if (!r || size != 4) return false;
    return r->block->write(addr - r->base, value);
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
