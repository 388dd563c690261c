#pragma once
// The SeaStar's host bridge windows (seed 000 §2: 15 windows of 256 MB over
// HyperTransport). The host driver opens a window onto a host buffer; the firmware
// reaches host memory only through open windows, and only within their limit.
// Anything else is an access fault for the core, never a host-memory access. A
// translated access goes over HyperTransport (bus::HyperTransport): loads wait for their
// round trip, stores are posted and land in host memory when their link time ends.
#include <array>
#include <cstdint>
#include <functional>

#include "niclab/bus/hypertransport.hpp"
#include "niclab/nic/memory_map.hpp"

namespace niclab::seastar {

struct HostWindow {
    uint64_t host_addr = 0;
    uint32_t limit = 0;
    bool open = false;
    bool writable = false;
};

class HostBridge final : public nic::MemoryWindow {
public:
    static constexpr unsigned kWindows = 15;

    explicit HostBridge(bus::HyperTransport& bus) : bus_(bus) {}

    // Host side (the driver). Throws std::out_of_range for a bad index or limit.
    void open_window(unsigned index, uint64_t host_addr, uint32_t limit, bool writable);
    void close_window(unsigned index);
    const HostWindow& window(unsigned index) const { return windows_.at(index); }
    // Called after every firmware store that lands in host memory [lo, hi): how a host
    // process polling that memory (an accelerated process's event queue, seed 000 §4.1)
    // learns it changed, without an interrupt. One watch; an empty function removes it.
    void watch_stores(uint64_t lo, uint64_t hi, std::function<void()> on_store) {
        watch_lo_ = lo;
        watch_hi_ = hi;
        on_store_ = std::move(on_store);
    }

    // Firmware side: addr is a core address below the MMIO space.
    bool read(uint32_t addr, unsigned size, uint32_t& value, Time& latency) override;
    bool write(uint32_t addr, unsigned size, uint32_t value, Time& occupancy) override;
    // The read-only window registers (NICLAB_HB_*).
    bool read_register(uint32_t offset, uint32_t& value) const;

    // The window registers as a register block on the core's memory map.
    class Registers final : public nic::RegisterBlock {
    public:
        explicit Registers(const HostBridge& bridge) : bridge_(bridge) {}
        bool read(uint32_t offset, uint32_t& value) override { return bridge_.read_register(offset, value); }
        bool pure_read(uint32_t) const override { return true; }
        bool write(uint32_t, uint32_t) override { return false; }  // read-only to firmware

    private:
        const HostBridge& bridge_;
    };

private:
    // Host address for [addr, addr+size) if it lies inside an open window.
    bool translate(uint32_t addr, unsigned size, bool for_write, uint64_t& host_addr) const;

    bus::HyperTransport& bus_;
    std::array<HostWindow, kWindows> windows_{};
    uint64_t watch_lo_ = 0, watch_hi_ = 0;
    std::function<void()> on_store_;
};

}  // namespace niclab::seastar
