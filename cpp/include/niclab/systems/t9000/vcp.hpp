#pragma once
// The T9000's Virtual Channel Processor (seed 003 P1 §2.1, L61, L77, L83): the on-chip
// hardware that cuts a process's message into packets of at most 32 bytes, sends them on
// a virtual link (VL) and writes arriving data straight into the receiving process's
// buffer, after which the hardware scheduler reschedules that process. Each packet on a
// VL is acknowledged (an empty packet: header + end token) before the next is sent on
// that VL (L77); packets of different VLs interleave on the physical link (L83).
//
// The VCP is a clocked engine at the CPU clock: one serial resource per node that spends
// an assumed number of cycles per packet sent, per packet received, per data byte and per
// acknowledgement (made or taken). With pipelines = 2 its output side (sending packets,
// making acknowledgements) and its input side (receiving packets, taking
// acknowledgements) are separate resources: a what-if, the seed does not say. The seed gives no such costs, only the design claim
// that the VCP reaches full link throughput above 30 MHz (L85, L120); the preset derives
// its assumption from that bound. Its work on a data packet streams with the link
// ("pipelined", L83): a packet's tail cannot leave before the VCP's send work on it is
// done, and receive work starts when the packet's head arrives, so the work hides under
// the packet's own transmission as far as it is shorter.
//
// Its data words go through the node's memory port (memory_system.hpp), pipelined with
// its work on the packet: a packet's work ends when both are done.
//
// Real bytes move: the sender's payload is read from host memory when the packet leaves,
// carried in the network packet and written to the receiver's buffer.
//
// Links: a T9000 has four DS links (L61), each its own cable into the network, so a
// node is `links` terminals of the network (system/terminals.hpp) and the VCP attaches
// one endpoint per link. A VL lives on one link, the same index at both ends (a direct
// connection cables link i to link i); packets of VLs on different links go on the wire
// in parallel. Whose engine does a packet's work: with engine_per_link (the preset) each
// link has its own engine (or pair of pipelines), so the rate at which the VCP drives
// the links scales linearly with the links in use (Fig. 3, L112) and the 4-link
// limit of L108 follows from the per-packet cost as 4 x the one-link limit; without it
// one engine serves every link, a what-if under which a second link adds nothing.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>
#include <map>
#include <string>
#include <utility>

#include "niclab/host/condition.hpp"
#include "niclab/host/host_memory.hpp"
#include "niclab/net/network.hpp"
#include "niclab/sim/error.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/sim/ring_queue.hpp"
#include "niclab/system/terminals.hpp"
#include "niclab/systems/t9000/memory_system.hpp"

namespace niclab::t9000 {

class T9000Error : public Error {
public:
    using Error::Error;
};

// The largest packet payload of the VCP (seed 003 L77, L632).
inline constexpr uint32_t kMaxPacketPayload = 32;
// DS links per T9000 (seed 003 L61 "four DS links").
inline constexpr uint32_t kMaxLinks = 4;

struct VcpParams {
    uint32_t node = 0;
    Time cycle = Time::ns(50);        // one CPU clock (the VCP runs at it)
    uint32_t packet_send_cycles = 0;  // per packet sent (header, VL state, end token)
    uint32_t packet_receive_cycles = 0;
    uint32_t ack_cycles = 0;          // per acknowledgement made or taken
    uint32_t byte_cycles = 0;         // per data byte moved (either direction)
    uint32_t pipelines = 1;           // 1: one engine; 2: separate output and input engines
    uint32_t max_payload = kMaxPacketPayload;
    // The network's terminals: terminals.ports is this node's links in use (1..4).
    system::Terminals terminals{2, 1};
    bool engine_per_link = true;  // each link's packets have their own engine(s)
};

struct VcpStats {
    uint64_t packets_sent = 0, packets_received = 0, acks_sent = 0, acks_received = 0;
    uint64_t bytes_sent = 0, bytes_received = 0;
    // Most unacknowledged packets one VL ever had (the ack rule makes it 1), and most
    // VLs that had a packet unacknowledged at the same time (several VLs overlap).
    uint32_t max_in_flight_per_vl = 0;
    uint32_t max_vls_in_flight = 0;
    // A packet arrived on a VL whose previous packet this VCP had not acknowledged yet.
    uint64_t overlapping_arrivals = 0;
    Time busy;  // engine time spent (all engines)
    std::array<uint64_t, kMaxLinks> packets_sent_on{};  // data packets sent, per link
    std::array<uint64_t, kMaxLinks> packets_received_on{};
};

// One virtual link to a peer as this node sees it: its output and its input channel.
struct VirtualLink {
    uint32_t peer = 0, index = 0;
    uint32_t link = 0;  // the physical link it is placed on (index mod links)
    // Output: a message being sent (one at a time per VL).
    bool out_active = false;
    uint64_t out_addr = 0, out_bytes = 0, out_sent = 0;
    uint32_t out_packets = 0;   // sent of the current message
    uint32_t out_unacked = 0;   // packets sent and not yet acknowledged
    uint64_t outputs_done = 0;  // messages fully acknowledged
    host::Condition out_cond;
    // Input: posted by the receiving process (its buffer and capacity).
    bool in_posted = false;
    uint64_t in_addr = 0, in_capacity = 0, in_received = 0;
    uint64_t inputs_done = 0;
    uint64_t last_input_bytes = 0;
    host::Condition in_cond;
    // A data packet that arrived before its input was posted: the VCP holds it (and
    // does not acknowledge it) until the process inputs.
    bool held = false;
    bool accepting = false;  // receive work on the held packet is under way
    Time held_head_at;
    net::BasicPacket<kMaxPacketPayload> held_packet;
    // Tags of messages sent to this VL (benchmark bookkeeping outside the wire: a T9000
    // message carries none, the occam protocol of the channel is agreed in advance).
    sim::RingQueue<uint64_t> tags;
};

class Vcp final {
public:
    // `network` null: a one-node system (an output then is an error).
    // `memory_system`: the port the VCP's data words go through (memory_system.hpp).
    Vcp(sim::Kernel& kernel, net::Network* network, host::HostMemory& memory, MemorySystem& memory_system,
        const VcpParams& params);
    ~Vcp();
    Vcp(const Vcp&) = delete;
    Vcp& operator=(const Vcp&) = delete;

    const VcpParams& params() const { return params_; }
    // The VL `index` to `peer` (made on first use), on link index mod links: VLs go
    // round-robin over the links.
    VirtualLink& link(uint32_t peer, uint32_t index);
    uint32_t links() const { return params_.terminals.ports; }
    // This node's terminal in the network for `link`.
    uint32_t terminal(uint32_t link) const { return params_.terminals.terminal(params_.node, link); }

    // Starts sending `bytes` at `addr` on `vl` (0 bytes: one empty packet). The VL must
    // have no output under way. vl.outputs_done grows when the last packet is acknowledged.
    void output(VirtualLink& vl, uint64_t addr, uint64_t bytes);
    // Posts an input of at most `capacity` bytes into `addr` on `vl`; vl.inputs_done grows
    // when the message's last packet is written there.
    void input(VirtualLink& vl, uint64_t addr, uint64_t capacity);

    const VcpStats& stats() const { return stats_; }
    bool faulted() const { return !fault_.empty(); }
    const std::string& fault() const { return fault_; }

private:
    // One link's endpoint in the network: what arrives on the link goes to the VCP.
    class Port final : public net::NetworkEndpoint {
    public:
        Port(Vcp& vcp, uint32_t link) : vcp_(vcp), link_(link) {}
        bool deliver(const net::PacketView& packet) override { return vcp_.deliver(link_, packet); }
        void injection_ready() override { vcp_.pump(link_); }

    private:
        Vcp& vcp_;
        uint32_t link_;
    };
    using Packet = net::BasicPacket<kMaxPacketPayload>;

    struct Slot {
        Time start, finish;
    };
    enum Side { kOutput = 0, kInput = 1 };
    // Reserves the engine of `side` (the one engine unless pipelines = 2) of `link` (of
    // the whole VCP unless engine_per_link) for `work` starting no earlier than `earliest`.
    Slot reserve(Side side, uint32_t link, Time earliest, Time work);
    Time cycles(uint64_t n) const { return params_.cycle * int64_t(n); }
    Time serialization(uint32_t link, uint32_t payload) const;
    bool deliver(uint32_t link, const net::PacketView& packet);
    void send_next(VirtualLink& vl);
    void accept_held(VirtualLink& vl, Time earliest);
    void ack_received(VirtualLink& vl);
    void send_ack(VirtualLink& vl);
    void queue(const Packet& p, uint32_t link, Time at);
    void pump(uint32_t link);
    void note_in_flight();
    void fail(const std::string& what);

    sim::Kernel& kernel_;
    net::Network* network_;
    host::HostMemory& memory_;
    MemorySystem& memory_system_;
    VcpParams params_;
    std::map<std::pair<uint32_t, uint32_t>, VirtualLink> links_;
    std::vector<std::unique_ptr<Port>> ports_;  // per link
    // Packets scheduled to leave, each with its link, in slots the event names by index
    // (events carry small captures). Freed slots are reused, so a packet on its way out
    // allocates nothing once the VCP has held its most at once, and costs no lookup.
    struct Leaving {
        uint32_t link;
        Packet packet;
    };
    std::vector<Leaving> leaving_;
    std::vector<uint32_t> leaving_free_;
    std::vector<sim::RingQueue<Packet>> tx_;  // per link: ready, waiting for the cable
    std::vector<Time> free_at_;           // per engine: link x side
    uint32_t vls_in_flight_ = 0;
    VcpStats stats_;
    std::string fault_;
};

}  // namespace niclab::t9000
