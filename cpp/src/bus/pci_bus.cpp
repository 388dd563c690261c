// PciBus: construction, the window map and interrupt delivery.
#include <algorithm>
#include <string>
#include <utility>

#include "niclab/bus/pci.hpp"

namespace niclab::bus {

namespace {
std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}
}  // namespace

PciBus::PciBus(sim::Kernel& kernel, host::HostCpu& cpu, host::HostMemory& memory, PciParams params)
    : kernel_(kernel), cpu_(cpu), memory_(memory), params_(params) {
    params_.validate();
    for (uint32_t b = 0; b <= kTabledBytes; ++b) {
        write_time_[b] = params_.write_occupancy(b);
        burst_time_[b] = params_.dma_burst_occupancy(b);
        read_stall_[b] = params_.read_stall(b);
    }
    entries_.resize(params_.store_buffer_entries);
    pending_.reserve(8);
}

void PciBus::map(uint64_t base, uint64_t size, PciTarget& target) {
    if (size == 0 || base + size < base)
        throw BusError("PCI window at " + hex(base) + " has a bad size " + hex(size));
    for (const Window& w : windows_)
        if (base < w.base + w.size && w.base < base + size)
            throw BusError("PCI window [" + hex(base) + ", " + hex(base + size) +
                           ") overlaps the window at " + hex(w.base));
    windows_.push_back({base, size, &target});
}

const PciBus::Window& PciBus::window_for(uint64_t addr, uint64_t bytes, const char* what) const {
    for (const Window& w : windows_)
        if (addr >= w.base && addr + bytes <= w.base + w.size) return w;
    throw BusError(std::string("PIO ") + what + " of " + std::to_string(bytes) + " bytes at " +
                   hex(addr) + " hits no mapped PCI window");
}

void PciBus::check_access(uint64_t addr, std::size_t bytes, const char* what) {
    if (bytes != 4 && bytes != 8 && bytes != 64)
        throw BusError(std::string("PIO ") + what + " of " + std::to_string(bytes) +
                       " bytes: one instruction moves 4, 8 or 64 bytes");
    if (addr % bytes != 0)
        throw BusError(std::string("PIO ") + what + " of " + std::to_string(bytes) + " bytes at " +
                       hex(addr) + " is not naturally aligned");
}

void PciBus::raise_interrupt(host::InterruptHandler handler) {
    ++counters_.interrupts;
    kernel_.schedule_in(params_.interrupt_latency,
                        [this, h = std::move(handler)]() mutable { cpu_.raise_interrupt(std::move(h)); });
}

}  // namespace niclab::bus
