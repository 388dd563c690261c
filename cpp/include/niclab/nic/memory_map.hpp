#pragma once
// The embedded core's address space below SRAM: which device answers at which address.
// A system maps its devices (register blocks, windows onto host memory) when it wires
// its NIC; the core sees only this map. Word registers share the NIC's MMIO timing;
// a window brings its own (the path behind it is the window's business).
#include <array>
#include <cstdint>

#include <boost/container/small_vector.hpp>

#include "niclab/sim/time.hpp"

namespace niclab::nic {

// A device's registers: 32-bit, word access only; false for an offset nothing answers to.
class RegisterBlock {
public:
    virtual ~RegisterBlock() = default;
    virtual bool read(uint32_t offset, uint32_t& value) = 0;
    virtual bool write(uint32_t offset, uint32_t value) = 0;
    // A read of this register has no side effect and gives the same value until an
    // event or a write changes it, whatever the time (core::Bus::pure_read). False, the
    // default, is always safe; a block says true for registers that only show state.
    virtual bool pure_read(uint32_t offset) const {
        (void)offset;
        return false;
    }
    // The device's state at firmware (re)load; a block whose state outlives the
    // firmware (the host driver's windows) keeps it.
    virtual void reset() {}
};

// A window of the address space onto memory behind a bridge: any access size, its own
// latency (loads) and occupancy (posted stores). False is an access fault for the core.
class MemoryWindow {
public:
    virtual ~MemoryWindow() = default;
    virtual bool read(uint32_t offset, unsigned size, uint32_t& value, Time& latency) = 0;
    virtual bool write(uint32_t offset, unsigned size, uint32_t value, Time& occupancy) = 0;
};

struct MmioTiming {
    Time read_latency = Time::ns(16);
    Time write_occupancy = Time::ns(8);
};

class MemoryMap {
public:
    explicit MemoryMap(MmioTiming timing) : timing_(timing) {}

    // Throws std::invalid_argument if [base, base+size) overlaps a mapped range.
    void map(uint32_t base, uint32_t size, RegisterBlock& block);
    void map(uint32_t base, uint32_t size, MemoryWindow& window);

    // Inline (below), as find is: every device access a core makes comes through here.
    bool read(uint32_t addr, unsigned size, uint32_t& value, Time& latency) const;
    bool write(uint32_t addr, unsigned size, uint32_t value, Time& occupancy) const;
    // A word register whose block says its reads are pure (windows never are: the path
    // behind them is shared).
    bool pure_read(uint32_t addr, unsigned size) const;
    // Every register block, in the order mapped (firmware load).
    void reset_devices() const;
    // The window that answers at `addr`, or null: how a tool holding only the generic
    // NIC finds a system's bridge (the Python Nic's host-window calls on the SeaStar).
    MemoryWindow* window_at(uint32_t addr) const;
    // Core accesses that went through a window (host memory, for the SeaStar's host
    // bridge), counted for observations; register accesses are the core's other device
    // accesses.
    uint64_t window_reads() const { return window_reads_; }
    uint64_t window_writes() const { return window_writes_; }

private:
    struct Range {
        uint32_t base, size;
        RegisterBlock* block;   // one of the two
        MemoryWindow* window;
    };
    // The range that answers at addr, from the page table: at most two byte loads and
    // one bounds check, however many ranges a system maps (a scan in map order took two
    // to five compares on the SeaStar; callgrind counts 19 host instructions a lookup
    // now against 21, so the gain is the bound, not the round trip).
    const Range* find(uint32_t addr) const;
    const Range* scan(uint32_t addr) const;
    void add(Range r);
    void build_pages();

    MmioTiming timing_;
    // In map order, inside the NIC's object (on a large system a separate allocation was a
    // host cache miss at each device access), as the page table's entries are.
    boost::container::small_vector<Range, 6> ranges_;
    // The page table: 16 MB pages, and 64 KB pages inside each 16 MB page that more than
    // one range meets (the devices' registers share one). An entry is 0 for no range,
    // 1 + i for range i alone (the address is still checked against it: a range may cover
    // part of its page), kSeveral for more than one (a 64 KB page that several small
    // register blocks share: scanned) or, at the top, kBlock + k for the k-th block of
    // 64 KB pages.
    static constexpr uint8_t kSeveral = 0xFF, kBlock = 0x80, kMaxRanges = 0x7F;
    std::array<uint8_t, 256> top_{};
    boost::container::small_vector<std::array<uint8_t, 256>, 1> blocks_;
    mutable uint64_t window_reads_ = 0, window_writes_ = 0;
};

inline const MemoryMap::Range* MemoryMap::find(uint32_t addr) const {
    uint8_t e = top_[addr >> 24];
    if (e & kBlock) e = blocks_[e - kBlock][(addr >> 16) & 0xFF];
    if (e == 0) return nullptr;
    if (e == kSeveral) [[unlikely]] return scan(addr);
    const Range& r = ranges_[e - 1];
    return addr - r.base < r.size ? &r : nullptr;
}

inline bool MemoryMap::read(uint32_t addr, unsigned size, uint32_t& value, Time& latency) const {
    const Range* r = find(addr);
    if (r && r->window) {
        ++window_reads_;
        return r->window->read(addr - r->base, size, value, latency);
    }
    latency = timing_.read_latency;  // a register, or a hole the core faults on after the same stall
    if (!r || size != 4) return false;
    return r->block->read(addr - r->base, value);
}

inline bool MemoryMap::write(uint32_t addr, unsigned size, uint32_t value, Time& occupancy) const {
    const Range* r = find(addr);
    if (r && r->window) {
        ++window_writes_;
        return r->window->write(addr - r->base, size, value, occupancy);
    }
    occupancy = timing_.write_occupancy;
    if (!r || size != 4) return false;
    return r->block->write(addr - r->base, value);
}

}  // namespace niclab::nic
