// The VCP's packet and acknowledgement protocol and its engine timing (vcp.hpp).
#include "niclab/systems/t9000/vcp.hpp"

#include <algorithm>
#include <vector>

#include "niclab/sim/activity.hpp"

namespace niclab::t9000 {

namespace {
// message_id of a packet: the VL index, with this bit set on acknowledgements.
constexpr uint32_t kAckFlag = 0x8000'0000u;
}  // namespace

Vcp::Vcp(sim::Kernel& kernel, net::Network* network, host::HostMemory& memory, MemorySystem& memory_system,
         const VcpParams& params)
    : kernel_(kernel), network_(network), memory_(memory), memory_system_(memory_system), params_(params) {
    const std::string me = "node " + std::to_string(params_.node);
    if (params_.pipelines != 1 && params_.pipelines != 2)
        throw T9000Error(me + ": the VCP has 1 or 2 pipelines, not " + std::to_string(params_.pipelines));
    if (params_.max_payload == 0 || params_.max_payload > kMaxPacketPayload)
        throw T9000Error(me + ": the VCP sends packets of 1.." + std::to_string(kMaxPacketPayload) + " bytes, not " +
                         std::to_string(params_.max_payload));
    if (links() == 0 || links() > kMaxLinks)
        throw T9000Error(me + ": a T9000 has 1.." + std::to_string(kMaxLinks) + " links, not " + std::to_string(links()));
    if (params_.node >= params_.terminals.nodes)
        throw T9000Error(me + " of a system of " + std::to_string(params_.terminals.nodes) + " nodes");
    tx_.resize(links());
    free_at_.assign(size_t(links()) * 2, Time{});
    if (network_) {
        if (network_->params().max_payload < params_.max_payload)
            throw T9000Error(me + ": the network carries " + std::to_string(network_->params().max_payload) +
                             "-byte payloads; the VCP sends " + std::to_string(params_.max_payload));
        if (network_->nodes() != params_.terminals.count())
            throw T9000Error(me + ": the network has " + std::to_string(network_->nodes()) + " terminals, not " +
                             std::to_string(params_.terminals.nodes) + " nodes x " + std::to_string(links()) + " links");
        for (uint32_t l = 0; l < links(); ++l) {
            ports_.push_back(std::make_unique<Port>(*this, l));
            network_->attach(terminal(l), ports_.back().get());
        }
    }
}

Vcp::~Vcp() {
    if (network_)
        for (uint32_t l = 0; l < ports_.size(); ++l) network_->attach(terminal(l), nullptr);
}

VirtualLink& Vcp::link(uint32_t peer, uint32_t index) {
    auto [it, fresh] = links_.try_emplace({peer, index});
    if (fresh) {
        it->second.peer = peer;
        it->second.index = index;
        it->second.link = index % links();
    }
    return it->second;
}

Vcp::Slot Vcp::reserve(Side side, uint32_t link, Time earliest, Time work) {
    Time& free_at = free_at_[size_t(params_.engine_per_link ? link : 0) * 2 + (params_.pipelines == 2 ? side : 0)];
    const Time start = std::max(earliest, free_at);
    free_at = start + work;
    stats_.busy += work;
    if (sim::ActivityLog* log = kernel_.activity()) log->record(sim::Activity::NicEngine, params_.node, start, free_at);
    return {start, free_at};
}

Time Vcp::serialization(uint32_t link, uint32_t payload) const {
    return network_ ? network_->link(network_->injection_link(terminal(link))).serialization(payload) : Time{};
}

void Vcp::fail(const std::string& what) {
    if (fault_.empty()) fault_ = "node " + std::to_string(params_.node) + " VCP: " + what;
}

void Vcp::output(VirtualLink& vl, uint64_t addr, uint64_t bytes) {
    if (!network_) throw T9000Error("node " + std::to_string(params_.node) + ": a one-node T9000 has no link to send on");
    if (vl.out_active)
        throw T9000Error("node " + std::to_string(params_.node) + ": output on VL " + std::to_string(vl.index) + " to node " +
                         std::to_string(vl.peer) + " while its previous message is still being sent");
    vl.out_active = true;
    vl.out_addr = addr;
    vl.out_bytes = bytes;
    vl.out_sent = 0;
    vl.out_packets = 0;
    send_next(vl);
}

void Vcp::send_next(VirtualLink& vl) {
    const auto n = uint32_t(std::min<uint64_t>(params_.max_payload, vl.out_bytes - vl.out_sent));
    Packet p;
    p.src = terminal(vl.link);
    p.dst = params_.terminals.terminal(vl.peer, vl.link);
    p.message_id = vl.index;
    p.sequence = uint16_t(vl.out_packets);
    p.head = vl.out_sent == 0;
    p.tail = vl.out_sent + n == vl.out_bytes;  // the end-of-message token
    p.length = uint16_t(n);
    memory_.read(vl.out_addr + vl.out_sent, p.data());
    // The tail may not leave before the send work on the packet is done; when the work
    // is shorter than the packet's transmission it hides under it.
    const Slot s =
        reserve(kOutput, vl.link, kernel_.now(), cycles(params_.packet_send_cycles + uint64_t(n) * params_.byte_cycles));
    // Its data words are read through the memory port alongside.
    const Time done = std::max(s.finish, memory_system_.vcp_access(s.start, vl.out_addr, vl.out_sent, n));
    const Time wire = serialization(vl.link, n);
    const Time leave = done - wire > s.start ? done - wire : s.start;
    vl.out_sent += n;
    ++vl.out_packets;
    if (++vl.out_unacked == 1) ++vls_in_flight_;
    note_in_flight();
    stats_.max_in_flight_per_vl = std::max(stats_.max_in_flight_per_vl, vl.out_unacked);
    ++stats_.packets_sent;
    ++stats_.packets_sent_on[vl.link];
    stats_.bytes_sent += n;
    queue(p, vl.link, leave);
}

void Vcp::note_in_flight() { stats_.max_vls_in_flight = std::max(stats_.max_vls_in_flight, vls_in_flight_); }

void Vcp::queue(const Packet& p, uint32_t link, Time at) {
    uint32_t i;
    if (leaving_free_.empty()) {
        i = uint32_t(leaving_.size());
        leaving_.push_back({link, p});
    } else {
        i = leaving_free_.back();
        leaving_free_.pop_back();
        leaving_[i] = {link, p};
    }
    kernel_.schedule_at(std::max(at, kernel_.now()), [this, i] {
        const uint32_t l = leaving_[i].link;
        tx_[l].push_back(leaving_[i].packet);
        leaving_free_.push_back(i);
        pump(l);
    });
}

void Vcp::pump(uint32_t l) {
    auto& q = tx_[l];
    while (!q.empty() && network_->inject(terminal(l), net::PacketView(q.front()))) q.pop_front();
}

bool Vcp::deliver(uint32_t on, const net::PacketView& p) {
    if (p.dst != terminal(on)) {
        fail("received a packet for terminal " + std::to_string(p.dst) + " on link " + std::to_string(on));
        return true;
    }
    VirtualLink& vl = link(params_.terminals.node_of(p.src), p.message_id & ~kAckFlag);
    if (vl.link != on || params_.terminals.port_of(p.src) != on) {
        fail("a packet of VL " + std::to_string(vl.index) + " (link " + std::to_string(vl.link) + ") arrived on link " +
             std::to_string(on) + " from terminal " + std::to_string(p.src));
        return true;
    }
    if (p.message_id & kAckFlag) {
        if (vl.out_unacked == 0) {
            fail("an acknowledgement on VL " + std::to_string(vl.index) + " from node " + std::to_string(p.src) +
                 " with no packet outstanding");
            return true;
        }
        const Slot s = reserve(kInput, on, kernel_.now(), cycles(params_.ack_cycles));
        kernel_.schedule_at(s.finish, [this, &vl] { ack_received(vl); });
        return true;
    }
    if (p.length > params_.max_payload) {
        fail("a " + std::to_string(p.length) + "-byte packet on VL " + std::to_string(vl.index));
        return true;
    }
    if (vl.held) {  // the sender did not wait for our acknowledgement
        ++stats_.overlapping_arrivals;
        fail("a second packet on VL " + std::to_string(vl.index) + " from node " + std::to_string(p.src) +
             " before the first was acknowledged");
        return true;
    }
    ++stats_.packets_received;
    ++stats_.packets_received_on[on];
    vl.held = true;
    Packet::copy_from(p, vl.held_packet);
    // Its head arrived one transmission before its tail (now): receive work starts there.
    vl.held_head_at = kernel_.now() - serialization(on, p.length);
    if (vl.in_posted) accept_held(vl, vl.held_head_at);
    return true;
}

void Vcp::input(VirtualLink& vl, uint64_t addr, uint64_t capacity) {
    if (vl.in_posted)
        throw T9000Error("node " + std::to_string(params_.node) + ": input on VL " + std::to_string(vl.index) + " from node " +
                         std::to_string(vl.peer) + " while another input is posted there");
    vl.in_posted = true;
    vl.in_addr = addr;
    vl.in_capacity = capacity;
    vl.in_received = 0;
    if (vl.held) accept_held(vl, kernel_.now());
}

void Vcp::accept_held(VirtualLink& vl, Time earliest) {
    if (vl.accepting) return;
    vl.accepting = true;
    const uint32_t n = vl.held_packet.length;
    const Slot s =
        reserve(kInput, vl.link, earliest, cycles(params_.packet_receive_cycles + uint64_t(n) * params_.byte_cycles));
    // Its data words are written through the memory port alongside.
    const Time done = std::max(s.finish, memory_system_.vcp_access(s.start, vl.in_addr, vl.in_received, n));
    kernel_.schedule_at(std::max(done, kernel_.now()), [this, &vl] {
        const auto& p = vl.held_packet;
        if (vl.in_received + p.length > vl.in_capacity) {
            fail("a message on VL " + std::to_string(vl.index) + " from node " + std::to_string(vl.peer) +
                 " is longer than the input's " + std::to_string(vl.in_capacity) + " bytes");
            return;
        }
        memory_.write(vl.in_addr + vl.in_received, p.data());
        vl.in_received += p.length;
        stats_.bytes_received += p.length;
        const bool last = p.tail;
        vl.held = false;
        vl.accepting = false;
        send_ack(vl);
        if (last) {
            vl.in_posted = false;
            vl.last_input_bytes = vl.in_received;
            ++vl.inputs_done;
            vl.in_cond.notify_all();
        }
    });
}

void Vcp::send_ack(VirtualLink& vl) {
    Packet a;
    a.src = terminal(vl.link);
    a.dst = params_.terminals.terminal(vl.peer, vl.link);
    a.message_id = vl.index | kAckFlag;
    a.head = a.tail = true;
    a.length = 0;
    ++stats_.acks_sent;
    queue(a, vl.link, reserve(kOutput, vl.link, kernel_.now(), cycles(params_.ack_cycles)).finish);
}

void Vcp::ack_received(VirtualLink& vl) {
    ++stats_.acks_received;
    if (--vl.out_unacked == 0) --vls_in_flight_;
    if (vl.out_sent < vl.out_bytes) {
        send_next(vl);
        return;
    }
    vl.out_active = false;
    ++vl.outputs_done;
    vl.out_cond.notify_all();
}

}  // namespace niclab::t9000
