#pragma once
// A HyperTransport link between a host and one device (the SeaStar, seed 000 §2 and
// seed 001 §2: 800 MHz DDR x16, 3.2 GB/s raw and 2.8 GB/s payload per direction) as a
// timed resource that host programmed I/O and the device's DMA share. Unlike PCI (one
// shared bus, bus/pci.hpp) HyperTransport has one link per direction:
//   to_nic   host -> device: host PIO writes (posted) and read requests (non-posted),
//            responses to the device's reads (DMA data, the core's loads through the bridge)
//   to_host  device -> host: the device's writes (posted: DMA data, the core's stores),
//            its read requests (non-posted), responses to host PIO reads
// so the two directions never wait for each other. Each direction carries HyperTransport's
// three virtual channels (posted, non-posted, response). A transaction holds its channel
// for its occupancy and transactions on one channel complete in order (the HT ordering
// rule within a virtual channel); with `shared_link` every channel of a direction waits
// for every other one (one FIFO per direction, no virtual-channel buffers).
//
// Data is visible where it goes only when its transaction completes: a DMA write lands
// in host memory at its completion time (a host that polls memory never sees it early),
// a host PIO write reaches the device at its completion time (the caller's `deliver`
// runs then). One exception, kept so the SeaStar's pinned results stay what they were:
// a store of the device's core through a bridge window holds the posted channel for its
// link time but is in host memory at once (landing it 8 ns later moves the two-node
// bidir result by +92 ns at 64 B: an interrupt handler running inside that window misses
// the firmware's event until the next interrupt). The device reaches host memory only
// through this class.
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "niclab/host/host_memory.hpp"
#include "niclab/sim/activity.hpp"
#include "niclab/sim/divisor.hpp"
#include "niclab/sim/error.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::bus {

// A HyperTransportParams value out of range; the message names the field.
class HyperTransportConfigError : public Error {
public:
    using Error::Error;
};

// Every value is a SeaStar preset parameter and keeps its key and citation there
// (systems/seastar/presets/seastar.json); the defaults are the preset's values.
// The three divisors are sim::Divisor: DMA engines ask for these times once or more per
// packet.
struct HyperTransportParams {
    // dma.host_bandwidth_mb_s — seed 001 §2: 2.8 GB/s payload per direction after
    // protocol overheads. Bulk data (DMA) holds its channel bytes / this rate.
    sim::Divisor<uint64_t> payload_mb_s = 2800;
    // dma.host_read_latency_ns — seed 000 §2: a DMA read's request to its first data
    // (host memory about ten SRAM reads away).
    Time dma_read_latency = Time::ns(160);
    // dma.read_request_bytes — HyperTransport: a sized read returns at most 16 dwords
    // (4-bit count field), so a DMA engine reads host memory in requests of this size.
    sim::Divisor<uint64_t> dma_read_bytes = 64;
    // dma.max_outstanding_reads — assumption (preset): the read requests one DMA engine
    // keeps in flight. With N of them a stream runs at min(payload rate, N x bytes /
    // (latency + a request's link time)): Little's law on the tags.
    sim::Divisor<uint64_t> dma_outstanding_reads = 4;
    // host_bridge.read_latency_ns — seed 000 §2: the core's load from host memory
    // through a bridge window, round trip (its 4-byte response's link time included).
    Time bridge_read_latency = Time::ns(160);
    // host_bridge.write_occupancy_ns — seed 000 §2: the link time of the core's posted
    // word store with its packet header at 3.2 GB/s.
    Time bridge_write_occupancy = Time::ns(8);
    // host.pio_read_ns — assumption (preset): a host load from device memory, the whole
    // round trip the CPU stalls.
    Time pio_read = Time::ns(750);
    // host.pio_write_ns — assumption (preset): the CPU time of one posted host store (a
    // write-combined burst) pushed through the northbridge onto the link.
    Time pio_write = Time::ns(50);
    // assumption: each virtual channel has its own buffers, so a transaction never waits
    // behind another channel's traffic (the link time a small PIO or bridge packet takes
    // between two bulk-data packets is neglected). true = one FIFO per direction, the
    // pessimistic bound, for what-if studies.
    bool shared_link = false;

    // HyperTransportConfigError naming the first bad field.
    void validate() const;
    // Link time of `bytes` of bulk data at payload_mb_s (truncated to whole picoseconds).
    Time transfer_time(uint64_t bytes) const { return Time::ps(int64_t(bytes * 1'000'000 / payload_mb_s)); }
    // A DMA read stream's first `bytes`, measured from its first data: when they are in.
    Time read_stream_time(uint64_t bytes) const;
    // The engine's tags run out before its first request's data is in: a stream comes in
    // waves of dma_outstanding_reads requests (else only the link limits it).
    bool read_waves() const {
        const Time t = transfer_time(dma_read_bytes);
        return t * int64_t(dma_outstanding_reads) < dma_read_latency + t;
    }
};

// read_stream_time of one stream's growing prefixes, asked in order (a DMA engine asks
// once a packet): the request holding the last byte moves on by a compare and its
// wave's time by an addition, rather than three divisions a packet. The same values.
class ReadStreamClock {
public:
    ReadStreamClock() = default;
    explicit ReadStreamClock(const HyperTransportParams& p);
    // `bytes` at least the previous call's.
    Time at(uint64_t bytes) {
        if (bytes == 0 || !waves_) return p_->transfer_time(bytes);
        while (bytes > end_) {  // the next request: in the same wave, or the next wave's first
            end_ += request_bytes_;
            if (++in_wave_ == outstanding_) {
                in_wave_ = 0;
                request_start_ += next_wave_;
            } else {
                request_start_ += request_time_;
            }
        }
        const uint64_t part = bytes - (end_ - request_bytes_);
        return request_start_ + (part == request_bytes_ ? request_time_ : p_->transfer_time(part));
    }

private:
    const HyperTransportParams* p_ = nullptr;
    bool waves_ = false;              // read_waves()
    uint64_t request_bytes_ = 0, outstanding_ = 0;
    Time request_time_{}, next_wave_{};  // a request's link time; from a wave's last request to the next's first
    uint64_t end_ = 0;                // bytes up to the end of the current request
    uint64_t in_wave_ = 0;            // the current request's place in its wave
    Time request_start_{};            // when the current request's data starts
};

struct HyperTransportCounters {
    uint64_t pio_reads = 0, pio_writes = 0;        // host transactions (a write: its stores together)
    uint64_t dma_reads = 0, dma_writes = 0;        // device transactions
    uint64_t bridge_reads = 0, bridge_writes = 0;  // the device core's loads and stores
    uint64_t bytes_to_nic = 0, bytes_to_host = 0;  // data moved (DMA and bridge)
    Time queue_wait;  // sum over transactions of the time their channel made them wait
};

class HyperTransport final : host::HostMemory::Inbound {
public:
    enum class Direction : uint8_t { to_nic, to_host };
    enum class Channel : uint8_t { posted, nonposted, response };

    // Validates `params` (HyperTransportConfigError). `memory` is the host's.
    HyperTransport(sim::Kernel& kernel, host::HostMemory& memory, HyperTransportParams params = {});
    ~HyperTransport();
    HyperTransport(const HyperTransport&) = delete;
    HyperTransport& operator=(const HyperTransport&) = delete;

    const HyperTransportParams& params() const { return params_; }
    const HyperTransportCounters& counters() const { return counters_; }
    sim::Kernel& kernel() { return kernel_; }
    // The node whose link this is, for the activity it records (sim/activity.hpp).
    void set_node(uint32_t node) { node_ = node; }
    // When channel `c` of direction `d` is next free.
    Time free_at(Direction d, Channel c) const { return free_[size_t(d)][channel_index(c)]; }

    // --- host side: the CPU time is charged by the caller (driver), from these times ---
    // A posted PIO write the CPU finished issuing at `issued` (its CPU time, pio_write per
    // store, already spent: the store's link time, 40 bytes at 3.2 GB/s, lies inside it).
    // It completes when the to-NIC posted channel lets it through, in order behind earlier
    // writes; `deliver` (may be empty) runs then — inline if that is now. Returns the
    // completion time.
    Time pio_write(Time issued, sim::Callback deliver = {});
    // A PIO read issued at `issued`: request on the to-NIC non-posted channel, response on
    // the to-host response channel. Returns the CPU stall (pio_read on idle channels);
    // the caller reads the device when the stall ends.
    Time pio_read(Time issued);

    // --- device side (from kernel events and device models at kernel now) ---
    // A DMA read of `bytes` (a device engine's pipelined read requests for one transfer):
    // the first request goes up, host memory answers after dma_read_latency, the data then
    // holds the to-NIC response channel for read_stream_time(bytes). Returns when the data
    // starts arriving; byte k is in at start + read_stream_time(k).
    Time dma_read_stream(Time at, uint64_t bytes);
    // The bytes of such a read (the engine copies them as they stream in).
    void dma_read_data(uint64_t addr, std::span<uint8_t> out) const;
    // A DMA write of `data` (copied at the call) to host memory at `addr` on the to-host
    // posted channel; the bytes land when it completes. Returns the completion time.
    Time dma_write(Time at, uint64_t addr, std::span<const uint8_t> data);
    // The device core's load of host memory through a bridge window: the value is read
    // now; returns the core's stall (bridge_read_latency on idle channels).
    Time bridge_read(Time at, uint64_t addr, std::span<uint8_t> out);
    // The core's posted store to host memory: holds the to-host posted channel for
    // bridge_write_occupancy (DMA writes after it wait), its bytes are written at once
    // (see above). Returns that occupancy for the core's posted-write buffer.
    Time bridge_write(Time at, uint64_t addr, std::span<const uint8_t> data);

    // Posted writes to host memory issued but not landed yet.
    uint32_t writes_in_flight() {
        land_due();
        return pending_count_;
    }

private:
    struct PendingWrite {
        uint64_t addr = 0;
        Time at;
        // The place its landing event would have had among the events of its time, and
        // that event's node (sim::Kernel::passed).
        sim::Kernel::EventKey key{};
        uint32_t node = 0;
        uint32_t size = 0;
        // A packet's bytes (what a DMA engine writes at a time) are kept in the ring itself:
        // in a vector of their own, a block elsewhere in the heap, copying them in missed the
        // host's cache (a third of a write's host time in a NetPIPE sweep). Longer writes go
        // to `spill`, whose capacity is kept from use to use.
        static constexpr uint32_t kInlineBytes = 64;
        std::array<uint8_t, kInlineBytes> inline_bytes;
        std::vector<uint8_t> spill;
        uint8_t* store(std::span<const uint8_t> data) {
            size = uint32_t(data.size());
            if (size <= kInlineBytes) [[likely]] return inline_bytes.data();
            spill.resize(size);
            return spill.data();
        }
        std::span<const uint8_t> data() const {
            return {size <= kInlineBytes ? inline_bytes.data() : spill.data(), size};
        }
    };
    // Into the activity log, if one is attached (a check per transaction, inline).
    void note(sim::Activity kind, Time start, Time end) const {
        if (sim::ActivityLog* log = kernel_.activity()) [[unlikely]] log->record(kind, node_, start, end);
    }
    // With one shared FIFO per direction every channel uses the posted slot.
    size_t channel_index(Channel c) const { return params_.shared_link ? 0 : size_t(c); }
    // slot, reserve and push_pending's common case are inline: each is on every packet's path.
    Time& slot(Direction d, Channel c) { return free_[size_t(d)][channel_index(c)]; }
    // Hold channel (d, c) for `occupancy` from `earliest` on; returns the start.
    Time reserve(Direction d, Channel c, Time earliest, Time occupancy) {
        Time& free = slot(d, c);
        const Time start = std::max(earliest, free);
        counters_.queue_wait += start - earliest;
        free = start + occupancy;
        return start;
    }
    void land_due() override;
    PendingWrite& push_pending() {
        if (pending_count_ == pending_.size()) [[unlikely]] grow_pending();
        return pending_[(pending_head_ + pending_count_++) & (pending_.size() - 1)];
    }
    void grow_pending();  // unroll the ring into one twice its size (rare)

    sim::Kernel& kernel_;
    host::HostMemory& memory_;
    HyperTransportParams params_;
    HyperTransportCounters counters_;
    uint32_t node_ = 0;
    Time free_[2][3]{};  // [direction][channel]

    // Posted writes to host memory not yet landed, in completion order (one channel,
    // FIFO): a ring that grows to the working set and then allocates nothing. Its size is
    // a power of two, so a position wraps with a mask.
    std::vector<PendingWrite> pending_;
    uint32_t pending_head_ = 0, pending_count_ = 0;
};

}  // namespace niclab::bus
