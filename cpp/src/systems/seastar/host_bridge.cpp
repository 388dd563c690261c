#include "niclab/systems/seastar/host_bridge.hpp"

#include <stdexcept>
#include <string>

#include "niclab/fw/hw.h"

namespace niclab::seastar {

void HostBridge::open_window(unsigned index, uint64_t host_addr, uint32_t limit, bool writable) {
    if (index >= kWindows) throw std::out_of_range("host window index " + std::to_string(index) + " (0..14)");
    if (limit > NICLAB_HOST_WINDOW_SIZE)
        throw std::out_of_range("host window limit " + std::to_string(limit) + " exceeds 256 MB");
    windows_[index] = HostWindow{host_addr, limit, true, writable};
}

void HostBridge::close_window(unsigned index) { windows_.at(index) = HostWindow{}; }

bool HostBridge::translate(uint32_t addr, unsigned size, bool for_write, uint64_t& host_addr) const {
    unsigned index = addr / NICLAB_HOST_WINDOW_SIZE;
    if (index >= kWindows) return false;
    const HostWindow& w = windows_[index];
    uint32_t offset = addr % NICLAB_HOST_WINDOW_SIZE;
    if (!w.open || uint64_t(offset) + size > w.limit || (for_write && !w.writable)) return false;
    host_addr = w.host_addr + offset;
    return true;
}

bool HostBridge::read(uint32_t addr, unsigned size, uint32_t& value, Time& latency) {
    uint64_t host_addr;
    if (!translate(addr, size, false, host_addr)) return false;
    value = 0;
    latency = bus_.bridge_read(bus_.kernel().now(), host_addr, {reinterpret_cast<uint8_t*>(&value), size});
    return true;
}

bool HostBridge::write(uint32_t addr, unsigned size, uint32_t value, Time& occupancy) {
    uint64_t host_addr;
    if (!translate(addr, size, true, host_addr)) return false;
    occupancy = bus_.bridge_write(bus_.kernel().now(), host_addr, {reinterpret_cast<const uint8_t*>(&value), size});
    if (on_store_ && host_addr >= watch_lo_ && host_addr < watch_hi_) on_store_();
    return true;
}

bool HostBridge::read_register(uint32_t offset, uint32_t& value) const {
    unsigned index = offset / NICLAB_HB_WINDOW_STRIDE;
    if (index >= kWindows) return false;
    const HostWindow& w = windows_[index];
    switch (offset % NICLAB_HB_WINDOW_STRIDE) {
        case NICLAB_HB_HOST_ADDR_LO: value = uint32_t(w.host_addr); return true;
        case NICLAB_HB_HOST_ADDR_HI: value = uint32_t(w.host_addr >> 32); return true;
        case NICLAB_HB_LIMIT: value = w.limit; return true;
        case NICLAB_HB_FLAGS: value = (w.open ? NICLAB_HB_OPEN : 0) | (w.writable ? NICLAB_HB_WRITABLE : 0); return true;
    }
    return false;
}

}  // namespace niclab::seastar
