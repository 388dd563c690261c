#pragma once
// The TX DMA engine (seed 000 §2, §4.3.1): the firmware fills its command FIFO, one
// command per contiguous host region of a message; the engine reads the regions from
// host memory through its own port onto HyperTransport (bus::HyperTransport, shared
// with the core's bridge and the host's PIO; not the core's local bus), cuts the
// message into 64-byte packets, computes the end-to-end CRC-32, injects the packets
// as the network's credits allow, and posts a completion. Messages go out one after
// the other, in FIFO order.
#include <array>
#include <cstdint>
#include <functional>

#include "niclab/fw/hw.h"
#include "niclab/bus/hypertransport.hpp"
#include "niclab/net/crc.hpp"
#include "niclab/net/packet.hpp"
#include "niclab/nic/device_ring.hpp"
#include "niclab/nic/memory_map.hpp"
#include "niclab/nic/packet_port.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/systems/seastar/config.hpp"

namespace niclab::seastar {

class TxDma final : public nic::RegisterBlock {
public:
    using RaiseIrq = std::function<void(uint32_t sources)>;
    TxDma(sim::Kernel& kernel, bus::HyperTransport& bus, const DmaConfig& cfg, uint32_t node_id, RaiseIrq raise);

    void set_port(nic::PacketPort* port) { port_ = port; }
    bool read(uint32_t offset, uint32_t& value) override;
    bool pure_read(uint32_t) const override { return true; }  // indices, counters and ring entries
    bool write(uint32_t offset, uint32_t value) override;
    void injection_ready();  // the network has a credit again
    void reset() override;

    uint64_t packets_sent() const { return packets_ - ahead_pending(); }
    uint64_t messages_sent() const { return messages_; }

private:
    struct Message {
        bool active = false;
        uint32_t first_cmd = 0, end_cmd = 0;  // command indices START..END
        uint32_t dst = 0, tag = 0, id = 0;
        uint64_t bytes = 0, sent = 0;        // message length, bytes already in packets
        uint32_t cmd = 0;                     // command being read
        uint64_t cmd_offset = 0;              // bytes of it already read
        uint16_t sequence = 0;
        Time data_start{};                    // when host data starts streaming in (the bus says)
        bus::ReadStreamClock stream;          // when each prefix of it is in, from data_start
        uint32_t status = 0;
    };
    void try_start();
    bool gather_packet(net::Packet& p);  // next packet's bytes from host memory
    void pump();                         // inject the next packet when its data is in
    bool inject_ahead(Time ready, Time& made);
    uint32_t ahead_pending() const;
    void finish();
    Time data_ready(uint64_t bytes_into_message);  // asked in order: msg_.stream
    // Its pumps join its packets' events in the network's lane: one train (net::Network::lane).
    sim::Kernel::Lane lane() const { return port_ ? port_->lane() : sim::Kernel::kNoLane; }

    sim::Kernel& kernel_;
    bus::HyperTransport& bus_;
    DmaConfig cfg_;
    uint32_t node_id_;
    RaiseIrq raise_;
    nic::PacketPort* port_ = nullptr;
    nic::DeviceRing cmds_;
    nic::DeviceRing cpls_;
    Message msg_;
    net::Crc32Batch<1024> crc_;  // the message's end-to-end CRC over the bytes sent so far
    net::Packet packet_;        // the packet waiting for a credit
    bool packet_waiting_ = false;
    bool waiting_for_credit_ = false;
    bool completion_deferred_ = false;  // the message is sent; its completion waits for room
    sim::EventId pump_event_;
    // Packets injected ahead (inject_ahead), oldest first, each with the time and key of
    // the pump event that would have injected it: counted in PACKETS from then on. The
    // counted ones' records stay until the ring is full.
    struct Ahead {
        Time at;
        sim::Kernel::EventKey key;
    };
    std::array<Ahead, 32> ahead_;  // more than a cable's credits (8 on SeaStar); when full, the engine's event
    uint32_t ahead_first_ = 0, ahead_count_ = 0;
    uint32_t next_message_id_ = 0;
    uint64_t packets_ = 0, messages_ = 0;
};

}  // namespace niclab::seastar
