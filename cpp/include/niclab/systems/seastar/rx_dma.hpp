#pragma once
// The RX DMA engine (seed 000 §2, §4.3.2): when the head packet of a new message
// arrives it takes one of its NICLAB_RXDMA_SLOTS message slots and posts an event with
// the message's header to the firmware; the firmware answers with deposit commands
// (skip N bytes, write M bytes to a host address); the engine demultiplexes the
// interleaved packets of all in-progress messages into their buffers through its own
// port onto HyperTransport (bus::HyperTransport: the bytes land in host memory when
// their posted write completes), verifies the end-to-end CRC-32 and posts a completion
// once its last write has landed.
// Packets that arrive before their commands wait in a per-slot buffer. When no slot
// or no buffer room is free, the engine refuses the packet (the network holds it,
// flow control backs up) and, for a new message without a slot, counts and signals
// the resource exhaustion to the firmware: never a silent hang.
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "niclab/fw/hw.h"
#include "niclab/bus/hypertransport.hpp"
#include "niclab/net/packet.hpp"
#include "niclab/nic/device_ring.hpp"
#include "niclab/nic/memory_map.hpp"
#include "niclab/nic/packet_port.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/sim/zero_pages.hpp"
#include "niclab/systems/seastar/config.hpp"

namespace niclab::seastar {

class RxDma final : public nic::RegisterBlock {
public:
    using RaiseIrq = std::function<void(uint32_t sources)>;
    RxDma(sim::Kernel& kernel, bus::HyperTransport& bus, const DmaConfig& cfg, RaiseIrq raise);

    void set_port(nic::PacketPort* port) { port_ = port; }
    // The kernel's reach for this node's core (sim::Kernel::set_reach): `extra` while the
    // engine holds back no packet, none while the network holds one for it - then the
    // core freeing room lets it in at once, and its credit goes back over one cable.
    void set_reach(uint32_t node, Time extra);
    bool read(uint32_t offset, uint32_t& value) override;
    bool pure_read(uint32_t) const override { return true; }  // indices, counters and ring entries
    bool write(uint32_t offset, uint32_t value) override;
    // A packet from the network; false = no room now (call port->receive_ready() later).
    bool deliver(const net::PacketView& p);
    void reset() override;

    uint64_t packets_received() const { return packets_; }
    uint64_t exhausted() const { return exhausted_; }
    uint64_t crc_errors() const { return crc_errors_; }
    uint64_t orphan_packets() const { return orphans_; }
    uint64_t refusals() const { return refusals_; }  // times the network began to hold a packet for it

private:
    struct Deposit {
        uint32_t discard, length, tag;
        uint64_t addr;
        bool end;
    };
    struct Slot {  // whose message it holds: keys_
        uint64_t bytes = 0;          // message length
        uint64_t arrived = 0;        // bytes received
        uint64_t consumed = 0;       // bytes taken by deposit commands (written or discarded)
        uint64_t deposited = 0;      // bytes written to host memory
        uint32_t crc = 0, expected_crc = 0;
        // The last crc_pending bytes written to the ring are not in crc yet: they are folded
        // in a ring at a time (net::Crc32Batch's reason), before a packet would overwrite
        // them and when the message completes (fold_crc).
        uint32_t crc_pending = 0;
        bool tail_seen = false, host_fault = false;
        std::span<uint8_t> buffer;    // arrived, not yet consumed (ring of rx_buffer_bytes in buffers_)
        uint32_t buf_start = 0, buf_len = 0;
        std::vector<Deposit> deposits;  // commands not yet used up (capacity reserved)
        size_t deposit_next = 0;
        uint64_t deposit_done = 0;      // bytes of deposits[deposit_next] done (discard + write)
        uint32_t tag = 0;
        bool end_seen = false;
    };
    // Inline, as let_held_in's common case: each is called for every packet.
    int find_slot(uint32_t src, uint32_t message_id) const {
        const uint64_t k = key(src, message_id);
        for (uint32_t b = busy_; b; b &= b - 1) {
            const uint32_t i = uint32_t(std::countr_zero(b));
            if (keys_[i] == k) return int(i);
        }
        return -1;
    }
    int allocate_slot(const net::PacketView& head);
    void take_commands();
    void drain(Slot& s, uint32_t index);
    void maybe_complete(Slot& s, uint32_t index);
    static void fold_crc(Slot& s);
    static bool wanted_more(const Slot& s);  // deposit commands asked for more than arrived
    void write_host(uint64_t addr, const uint8_t* data, uint32_t n, Slot& s);
    void set_refused(bool refused);
    // Room again: the packet the network holds may come in.
    void let_held_in() {
        if (refused_ && port_) [[unlikely]] release_held();
    }
    void release_held();

    sim::Kernel& kernel_;
    bus::HyperTransport& bus_;
    DmaConfig cfg_;
    RaiseIrq raise_;
    nic::PacketPort* port_ = nullptr;
    nic::DeviceRing events_;
    nic::DeviceRing cmds_;
    nic::DeviceRing cpls_;
    std::array<Slot, NICLAB_RXDMA_SLOTS> slots_;
    // Which slots hold a message (bit i: slot i) and whose (source << 32 | message id):
    // every packet looks its slot up here, in a few host cache lines, rather than in each
    // slot's own (on a large system those were a host cache miss apiece).
    static_assert(NICLAB_RXDMA_SLOTS <= 32);
    uint32_t busy_ = 0;
    std::array<uint64_t, NICLAB_RXDMA_SLOTS> keys_{};
    bool busy(uint32_t index) const { return busy_ >> index & 1; }
    static uint64_t key(uint32_t src, uint32_t message_id) { return uint64_t(src) << 32 | message_id; }
    sim::ZeroPages buffers_;   // the slots' buffers, resident once a message has used them
    Time host_write_free_{};   // the engine's last write to host memory lands then
    // The completion tail the firmware sees: a completion becomes visible only once the
    // engine's writes of its data to host memory are done, so polling firmware never
    // reports a message before its bytes are in place. `generation_` drops publications
    // scheduled before a reset.
    uint32_t cpl_visible_tail_ = 0;
    uint64_t generation_ = 0;
    bool refused_ = false;     // a delivery was refused: tell the port when room frees
    uint32_t node_ = sim::kNoNode;  // set_reach: none until then
    Time reach_{};
    uint64_t packets_ = 0, exhausted_ = 0, crc_errors_ = 0, orphans_ = 0, refusals_ = 0;
    bool exhaustion_signalled_ = false;
};

}  // namespace niclab::seastar
