// The STC101 link adaptor (board.hpp): paces what it sends to its maximum throughput
// (seed 003 L636, 9.2 MB/s of characters: routing header, protocol characters and
// data) and hands packets to the network, which adds the DS link's own token timing
// (10-bit data tokens, EOP, flow-control tokens). Received packets go to comin.
#include <cmath>

#include "niclab/sim/activity.hpp"
#include "niclab/systems/dsnic/board.hpp"

namespace niclab::dsnic {

C101::C101(sim::Kernel& kernel, net::Network* network, const BoardParams& p, PacketBuffers& buffers)
    : kernel_(kernel), network_(network), p_(p), buffers_(buffers) {
    if (network_) network_->attach(p_.node, this);
}

C101::~C101() {
    if (network_) network_->attach(p_.node, nullptr);
}

void C101::send(FifoPacket packet, sim::Callback sent) {
    if (busy_) throw DsnicError("node " + std::to_string(p_.node) + ": C101 given a packet while it sends one");
    if (!network_) throw DsnicError("node " + std::to_string(p_.node) + " sent a packet, but a one-node system has no DS link");
    busy_ = true;
    packet_ = std::move(packet);
    sent_ = std::move(sent);
    if (free_at_ > kernel_.now()) kernel_.schedule_at(free_at_, [this] { try_inject(); });
    else try_inject();
}

void C101::try_inject() {
    net::PacketHeader ph;
    ph.src = p_.node;
    ph.dst = packet_.peer;
    ph.message_id = packet_.proto.encode();
    ph.sequence = packet_.proto.seq;
    ph.head = ph.tail = true;
    ph.length = uint16_t(packet_.data.size());
    ph.message_bytes = packet_.tag;
    if (!network_->inject(p_.node, net::PacketView(ph, std::span<const uint8_t>(packet_.data.data(), packet_.data.size())))) {
        refused_ = true;  // the link's flow control: injection_ready() retries
        return;
    }
    const double chars = double(p_.header_bytes + p_.protocol_bytes + packet_.data.size());
    buffers_.give(packet_.data);  // the network copied the bytes
    free_at_ = kernel_.now() + Time::ps(int64_t(std::llround(chars / p_.c101_bytes_per_s * 1e12)));
    // The adaptor's pacing is the NIC's own work, for a latency breakdown.
    if (sim::ActivityLog* log = kernel_.activity()) log->record(sim::Activity::NicEngine, p_.node, kernel_.now(), free_at_);
    kernel_.schedule_at(free_at_, [this] {
        busy_ = false;
        auto done = std::move(sent_);
        if (done) done();
    });
}

void C101::injection_ready() {
    if (!refused_) return;
    refused_ = false;
    try_inject();
}

bool C101::head_arrived(const net::PacketView& packet, Time tail_at) {
    head_in_ = receiver_ && receiver_(packet, tail_at);
    return head_in_;
}

bool C101::deliver(const net::PacketView& packet) {
    // A packet handed over whole (no head_arrived before it) is header and tail at once.
    if (!head_in_ && !head_arrived(packet, kernel_.now())) return false;
    head_in_ = false;  // the end-of-packet: comin counted the length (the mailbox has it)
    return true;
}

void C101::receive_space_freed() {
    if (network_) network_->endpoint_ready(p_.node);
}

uint32_t C101::read_register(uint32_t reg) const {
    // Register 0, the link status: bit 0 the link is started (it has a network).
    return reg == 0 && network_ ? 1u : 0u;
}

}  // namespace niclab::dsnic
