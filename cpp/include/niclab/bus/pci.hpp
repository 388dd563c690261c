#pragma once
// A PCI bus as one shared, timed resource between a host and its devices (StarT-X now;
// the DSNIC and the Myrinet LANai card later). PCI is a single shared bus: every
// transaction — a host PIO read, a posted PIO write, a device's DMA burst — takes one
// slot on one occupancy timeline, granted in request order (FIFO arbitration), so
// transmit and receive DMA at once contend with each other and with PIO (seed 002
// §6.1.2 L226).
//
// Host side (called from a host process's fiber; the CPU time charged comes from this
// model, through ctx.compute, so it shows in measured overheads):
//   store(ctx, addr, bytes)  one store instruction (4 B st, 8 B std, 64 B stda); posted
//                            into the store buffer, costs its issue time, stalls only
//                            when the buffer is full. Consecutive-address stores merge
//                            into one burst transaction up to a merge limit (why StarT-X
//                            aliases each register over its page, 002 §5.1 L164).
//   load(ctx, addr, out)     one load instruction (4 B ld, 8 B ldd, 64 B ldda). Loads to
//                            I/O space are ordered after earlier stores (the store buffer
//                            drains first), then stall for a cost linear in the bytes
//                            through the two measured points of 002 §5.1 L155/L164.
//   flush(ctx)               membar: wait until every posted store reached its device.
// Device side (called from device models in kernel events):
//   dma_read / dma_write     bus-master transfers of real bytes in host::HostMemory, in
//                            bursts, each burst arbitrating on its own; written bytes
//                            become visible in host memory only when their burst
//                            completes; the completion callback runs at the end.
//   raise_interrupt          delivered to host::HostCpu after a latency.
//
// Timing of one PIO read of b bytes, with `p` = host_path_latency:
//   stall(b) = read_small_cost + (b - read_small_bytes) * slope    (linear, 002 §5.1)
//   the request reaches the bus p after issue (after earlier stores drained); the bus
//   is held for stall(b) - 2p (target latency and data phases: S5933 pass-through reads
//   insert wait states), the target reads at the start of that slot, the data needs p
//   to come back. On an idle bus the CPU stalls exactly stall(b).
// One write transaction of n bytes holds the bus for
//   (address_cycles + ceil(n / width_bytes) + write_overhead_cycles) PCI clocks;
// its data reach the target at the transaction's end.
// One DMA burst of n bytes holds the bus for
//   (address_cycles + ceil(n / width_bytes) + dma_overhead_cycles) PCI clocks;
// a DMA read burst that does not continue the bridge's prefetch stream first waits
// dma_read_latency (host memory latency). The stream continues where the last read burst
// ended, and, with dma_write_ends_read_prefetch, only while no DMA write burst ran in
// between: a read then starts after that write's end (PCI 2.1 ordering: a read pushes
// earlier posted writes ahead of it) and fetches afresh. Transmit and receive DMA at once
// (an exchange, 002 §6.1.2 L226) thus pay host memory latency on every read burst that
// follows a write burst, on top of sharing the bus.
#include <array>
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "niclab/host/host_cpu.hpp"
#include "niclab/host/host_memory.hpp"
#include "niclab/host/interrupt.hpp"
#include "niclab/host/process.hpp"
#include "niclab/sim/error.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::bus {

// Bad use of the bus: an unmapped or misaligned address, an unsupported access size,
// overlapping windows. The message names the address and size.
class BusError : public Error {
public:
    using Error::Error;
};
// A PciParams value out of range; the message names the field.
class BusConfigError : public BusError {
public:
    using BusError::BusError;
};

// Every value cites its source or says why it is an assumption. Defaults: the SUN E5000
// (166 MHz UltraSPARC-1, its PCI bridge) with a 32-bit 33 MHz card, as in seed 002.
struct PciParams {
    // 002 §4 L118: the S5933 interfaces "to a 32-bit 33 MHz PCI bus" (33.33 MHz nominal).
    double clock_hz = 33.33e6;
    uint32_t width_bytes = 4;

    // Host PIO read stall, linear in the bytes read through two measured points.
    // 002 §5.1 L155: "a 4-byte PIO read ... stall the 166 MHz UltraSPARC-1 ... 1.03 usec".
    uint32_t read_small_bytes = 4;
    Time read_small_cost = Time::ps(1'030'000);
    // 002 §5.1 L164: "1.96 usec per 64-byte read" (ldda).
    uint32_t read_large_bytes = 64;
    Time read_large_cost = Time::ps(1'960'000);
    // assumption: one way CPU -> UPA -> PCI bridge for an uncached access, 4 cycles of the
    // 83.3 MHz UPA clock; not given in 002. Splits the read stall into path and bus time
    // and delays a posted store's arrival at the bus.
    Time host_path_latency = Time::ps(48'000);

    // Posted PIO writes. The paper gives no write cost (digest S7); none of these is
    // derived from Table 1's O_s (circularity register).
    // assumption: the UltraSPARC-I load/store unit's 8-entry store buffer (UltraSPARC
    // I&II User's Manual); the bridge's write buffer is folded into it, so an entry
    // frees when its PCI transaction completes.
    uint32_t store_buffer_entries = 8;
    // assumption: stores merge up to one 64-byte block (the UltraSPARC's block size, the
    // bridge's merge buffer); a merged burst never crosses a 64-byte boundary.
    uint32_t merge_limit_bytes = 64;
    // assumption: a partial write waits this long after its last store for a contiguous
    // successor before it is issued (two CPU cycles: back-to-back stores always merge).
    Time merge_window = Time::ps(12'048);
    // assumption: one store instruction issues in one 166 MHz cycle (6.024 ns).
    Time store_issue_cost = Time::ps(6'024);
    // PCI 2.1 §3.1: one address phase per transaction (two with dual address cycles).
    uint32_t address_cycles = 1;
    // assumption: medium DEVSEL decode (1) + idle turnaround (1) + bus hand-over between
    // masters (1), PCI 2.1 §3.4 timing, no target wait states on posted writes.
    uint32_t write_overhead_cycles = 3;

    // DMA (bus master).
    // assumption: the S5933's bus-master FIFOs hold 8 dwords (32 bytes) per direction
    // (AMCC S5933 data book), so a master burst moves at most 32 bytes.
    uint32_t dma_burst_bytes = 32;
    // assumption: REQ/GNT arbitration (1) + host bridge DEVSEL decode (1) + turnaround
    // (1) per burst.
    uint32_t dma_overhead_cycles = 3;
    // assumption: E5000 main-memory read latency seen by a PCI master through the bridge
    // (~0.5 us; not in 002), paid once per non-sequential DMA read stream.
    Time dma_read_latency = Time::ps(500'000);
    // A DMA write burst ends the bridge's read prefetch stream. PCI 2.1 (seed 002 ref
    // [17]) Appendix E ordering: a read request must push the writes posted before it
    // through to memory before it is attempted (the bridge manuals' rule 2, e.g. Intel
    // 21555, Pericom PI7C8140). assumption: the E5000's bridge then discards the data it
    // prefetched before the write (which the write may have made stale; 002 §5.2 L174:
    // "PCI DMA is cache-coherent") rather than checking addresses, so the next read
    // burst waits dma_read_latency again. False: prefetched data survives writes.
    bool dma_write_ends_read_prefetch = true;

    // assumption: PCI INTx -> bridge interrupt mapping -> UPA mondo vector to the CPU;
    // about 1 us, not in 002 (whose interrupt is optional and unmeasured, footnote 3).
    Time interrupt_latency = Time::ps(1'000'000);

    // BusConfigError naming the first bad field.
    void validate() const;
    // n PCI clocks as simulated time (rounded to the nearest picosecond).
    Time cycles(uint64_t n) const;
    // The CPU stall of one PIO read of `bytes` on an idle bus (linear through the two points).
    Time read_stall(uint32_t bytes) const;
    // Bus occupancy of one write transaction / one DMA burst of `bytes`.
    Time write_occupancy(uint32_t bytes) const;
    Time dma_burst_occupancy(uint32_t bytes) const;
};

// What a device implements to be reached by host PIO. Offsets are within its window;
// `at` is the simulated time the access reaches the device (== kernel now).
class PciTarget {
public:
    virtual ~PciTarget() = default;
    // A write transaction's data (address order; size a multiple of 4, at most the merge
    // limit). Called from a kernel event: an exception thrown here ends the run.
    virtual void pci_write(uint64_t offset, std::span<const uint8_t> data, Time at) = 0;
    // A read transaction: fill `out` (4, 8 or 64 bytes). Called in the reading process's
    // fiber: an exception thrown here fails that process (its body sees it).
    virtual void pci_read(uint64_t offset, std::span<uint8_t> out, Time at) = 0;
    // True when a read of `bytes` at `offset` may be done just after the reading CPU's
    // stall up to it ends rather than just before, the two being at the same picosecond
    // with nothing between them (PciBus::read_at_once): what the read does neither reads
    // nor changes that CPU's accounting. It may change the target, the bus and the
    // network, schedule events, and wake processes (HostCpu::make_ready leaves their
    // dispatch to an event, and a burst ended at once dispatches after its process
    // blocks, as the stall's end event would): a status register, or a receive queue
    // whose words it pops.
    virtual bool read_may_follow_stall(uint64_t /*offset*/, std::size_t /*bytes*/) const { return false; }
};

struct PciCounters {
    uint64_t transactions = 0;     // every bus transaction (PIO read/write, DMA burst)
    uint64_t pio_reads = 0;
    uint64_t pio_writes = 0;       // write transactions (after merging)
    uint64_t stores = 0;           // store instructions
    uint64_t merged_stores = 0;    // stores that joined an open write instead of starting one
    uint64_t dma_bursts = 0;
    uint64_t bytes_pio_read = 0;
    uint64_t bytes_pio_written = 0;
    uint64_t bytes_dma_read = 0;   // host memory -> device
    uint64_t bytes_dma_written = 0;  // device -> host memory
    uint64_t store_stalls = 0;     // stores that found the store buffer full
    Time store_stall_time;         // CPU time stalled on a full store buffer
    Time flush_time;               // CPU time stalled in flush (membar)
    Time ordering_wait;            // CPU time loads waited for earlier stores to drain
    Time busy;                     // total bus occupancy
    Time arbitration_wait;         // sum over transactions of (granted - requested)
    uint64_t dma_read_fetches = 0;   // DMA read bursts that waited dma_read_latency
    uint64_t prefetch_discards = 0;  // read streams a DMA write burst ended
    uint64_t interrupts = 0;
};

class PciBus {
public:
    // Completion of a DMA transfer, called at its completion time.
    using Done = sim::Callback;

    // Validates `params` (BusConfigError). `cpu` and `memory` are the host's.
    PciBus(sim::Kernel& kernel, host::HostCpu& cpu, host::HostMemory& memory, PciParams params = {});
    PciBus(const PciBus&) = delete;
    PciBus& operator=(const PciBus&) = delete;

    const PciParams& params() const { return params_; }
    const PciCounters& counters() const { return counters_; }
    sim::Kernel& kernel() { return kernel_; }
    host::HostMemory& memory() { return memory_; }

    // Map a device window [base, base + size) of PIO space (BusError on overlap).
    void map(uint64_t base, uint64_t size, PciTarget& target);

    // --- host side (from a process's fiber) ---
    // One store instruction of 4, 8 or 64 bytes, naturally aligned (BusError otherwise).
    void store(host::ProcessContext& ctx, uint64_t addr, std::span<const uint8_t> bytes);
    // One load instruction of 4, 8 or 64 bytes, naturally aligned.
    void load(host::ProcessContext& ctx, uint64_t addr, std::span<uint8_t> out);
    // membar: returns once every posted store has reached its device.
    void flush(host::ProcessContext& ctx);
    // Store-buffer entries not yet completed on the bus.
    uint32_t pending_stores() const;

    // --- device side (from kernel events) ---
    // Read host memory [addr, addr + out.size()) into `out` (kept alive by the caller until
    // `done`). Bytes are taken from host memory as each burst runs.
    void dma_read(uint64_t addr, std::span<uint8_t> out, Done done);
    // Write `data` (copied at the call) to host memory at `addr`; each burst's bytes land
    // when that burst completes; `done` runs when the last one has.
    void dma_write(uint64_t addr, std::span<const uint8_t> data, Done done);
    // Deliver an interrupt to the host CPU after params().interrupt_latency.
    void raise_interrupt(host::InterruptHandler handler);

    // When the bus is next free (the end of the transaction granted last).
    Time free_at() const { return free_at_; }

private:
    struct Window {
        uint64_t base, size;
        PciTarget* target;
    };
    // One store-buffer entry: a write transaction being assembled or on its way.
    struct Entry {
        uint64_t addr = 0;
        uint32_t bytes = 0;
        uint8_t data[64];
        const Window* window = nullptr;
        Time ready;        // reaches the bridge (first store + path latency)
        Time open_until;   // may still merge until then (while it is the tail)
        bool closed = false;
        bool issued = false;
        Time done;         // transaction end, once issued
        sim::EventId event;  // its completion
    };
    struct DmaOp {
        bool write = false;
        bool in_use = false;
        uint64_t addr = 0;
        uint64_t length = 0;
        uint64_t moved = 0;
        uint8_t* out = nullptr;       // dma_read destination
        std::vector<uint8_t> buffer;  // dma_write data (capacity reused)
        bool prefetched = false;      // its requested read burst is covered by the prefetch stream
        Done done;
    };
    // A PIO read waiting for or holding the bus (one per reading process).
    struct ReadSlot {
        bool in_use = false;
        bool granted = false;
        Time start;
        uint64_t offset = 0;
        const Window* window = nullptr;
        std::span<uint8_t> out;
        std::exception_ptr error;  // from the target, rethrown in the reading fiber
    };
    // Arbitration: one pending request per would-be bus master, granted in order of
    // (earliest, request sequence) once the bus is free.
    enum class Kind : uint8_t { pio_write, pio_read, dma_burst };
    struct Request {
        Kind kind;
        uint32_t id;      // read slot or DMA op
        Time earliest;
        Time duration;    // for PIO writes: decided at grant (merging goes on until then)
        uint64_t seq;
    };

    const Window& window_for(uint64_t addr, uint64_t bytes, const char* what) const;
    static void check_access(uint64_t addr, std::size_t bytes, const char* what);
    Entry& entry(uint32_t i) { return entries_[(head_ + i) % entries_.size()]; }
    const Entry& entry(uint32_t i) const { return entries_[(head_ + i) % entries_.size()]; }

    // Arbiter. `last_act`: the caller is the last thing its event's callback does, so an
    // arbitration that would be the kernel's next event may happen on the spot
    // (sim::Kernel::fire_inline): a DMA stream's next burst on an idle bus.
    void request(Kind kind, uint32_t id, Time earliest, Time duration, bool last_act = false);
    Request* find_request(Kind kind, uint32_t id);
    void schedule_arbitration(bool last_act = false);
    void arbitrate();
    void grant(const Request& r, Time now);  // r, taken out of pending_, goes on the bus now
    Time duration_of(const Request& r) const;
    Time predict_grant(Kind kind, uint32_t id) const;

    // Store buffer.
    void close_tail();
    void request_next_write();
    void grant_write(Time start);
    void complete_write();
    void retire_due_writes();
    void stall_until_entries_below(host::ProcessContext& ctx, uint32_t limit, Time& stalled);
    bool read_at_once(host::ProcessContext& ctx, uint32_t slot, Time earliest, Time occupancy);

    // DMA.
    uint32_t alloc_dma(bool write, uint64_t addr, uint64_t length, Done done);
    void request_burst(uint32_t op, Time earliest, bool last_act = false);
    void grant_burst(uint32_t op, Time start);
    void burst_done(uint32_t op, uint32_t bytes);
    void end_read_prefetch(Time write_end);

    // A transaction's bus time by its bytes, from params_'s formulas worked out once for
    // every size up to a 64-byte block: each is a rounded double division, and a DMA
    // stream asks for one at every burst.
    static constexpr uint32_t kTabledBytes = 64;
    using ByBytes = std::array<Time, kTabledBytes + 1>;
    Time write_time(uint32_t b) const { return b <= kTabledBytes ? write_time_[b] : params_.write_occupancy(b); }
    Time burst_time(uint32_t b) const { return b <= kTabledBytes ? burst_time_[b] : params_.dma_burst_occupancy(b); }
    Time read_stall(uint32_t b) const { return b <= kTabledBytes ? read_stall_[b] : params_.read_stall(b); }

    sim::Kernel& kernel_;
    host::HostCpu& cpu_;
    host::HostMemory& memory_;
    PciParams params_;
    ByBytes write_time_{}, burst_time_{}, read_stall_{};
    PciCounters counters_;
    std::vector<Window> windows_;

    std::vector<Entry> entries_;  // ring of store_buffer_entries
    uint32_t head_ = 0;           // oldest entry not yet completed
    uint32_t count_ = 0;          // entries in use
    uint32_t issued_ = 0;         // of those, granted the bus (the oldest ones)
    bool write_requested_ = false;

    std::vector<ReadSlot> reads_;
    std::vector<DmaOp> dma_;
    uint64_t dma_stream_end_ = UINT64_MAX;  // where the last DMA read burst ended (prefetch)
    Time last_dma_write_end_;               // end of the last DMA write burst granted

    std::vector<Request> pending_;
    uint64_t request_seq_ = 0;
    sim::EventId arbitration_event_;
    bool arbitration_scheduled_ = false;
    Time arbitration_at_;
    Time free_at_;
};

}  // namespace niclab::bus
