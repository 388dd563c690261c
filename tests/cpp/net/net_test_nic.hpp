#pragma once
// A stand-in NIC for network tests: sends a queue of packets per vnet as fast as
// the injection credits allow, and logs what it receives (optionally refusing some
// deliveries and draining its receive buffers slowly).
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "niclab/net/crc.hpp"
#include "niclab/net/network.hpp"

namespace niclab::net::testing {

// A DS link (seed 003 L85, L95; IEEE 1355): 100 Mbit/s, 10-bit data characters, a
// 4-bit end token, one 4-bit flow-control token per 8 characters freed, 20 ns of cable;
// `header_chars` routing (and protocol) characters per packet.
inline LinkParams ds_link(uint32_t header_chars) {
    LinkParams l;
    l.wire_bits_per_s = 100'000'000;
    l.token_bits = 10;
    l.end_bits = 4;
    l.fct_bits = 4;
    l.fct_chars = 8;
    l.overhead_bytes = header_chars;
    l.latency = Time::ns(20);
    return l;
}

// An owning copy of a packet of any length (tests may allocate).
struct StoredPacket : PacketHeader {
    std::vector<uint8_t> payload;
    StoredPacket(const PacketView& v) : PacketHeader(v), payload(v.payload.begin(), v.payload.end()) {}
    std::span<const uint8_t> data() const { return payload; }
    PacketView view() const { return PacketView(*this, payload); }
};

struct Delivery {
    Time at;
    StoredPacket packet;
};

// The byte at `i` of the payload of message `message_id` from `src`: bytes that name it.
inline uint8_t payload_byte(NodeId src, uint32_t message_id, unsigned i) {
    return uint8_t(src * 131 + message_id * 7 + i * 13);
}

// Fills a one-packet message of up to N bytes with bytes that name it, and its end-to-end CRC.
template <std::size_t N>
BasicPacket<N> make_frame(NodeId src, NodeId dst, uint32_t message_id, uint16_t length, uint8_t vnet = 0) {
    BasicPacket<N> p;
    p.src = src;
    p.dst = dst;
    p.message_id = message_id;
    p.head = p.tail = true;
    p.length = length;
    p.vnet = vnet;
    for (unsigned i = 0; i < length; ++i) p.payload[i] = payload_byte(src, message_id, i);
    p.message_crc = crc32(p.data());
    return p;
}

inline Packet make_packet(NodeId src, NodeId dst, uint32_t message_id, uint8_t length) {
    Packet p;
    static_cast<BasicPacket<64>&>(p) = make_frame<64>(src, dst, message_id, length);
    return p;
}

inline bool payload_intact(const PacketView& p) {
    for (unsigned i = 0; i < p.payload.size(); ++i)
        if (p.payload[i] != payload_byte(p.src, p.message_id, i)) return false;
    return p.payload.size() == p.length && crc32(p.data()) == p.message_crc;
}
inline bool payload_intact(const StoredPacket& p) { return payload_intact(p.view()); }

class TestNic : public NetworkEndpoint {
public:
    TestNic(Network& net, NodeId node) : net_(net), node_(node) { net.attach(node, this); }

    void send(const PacketView& p) {
        outbox_.at(p.vnet).emplace_back(p);
        pump();
    }
    // Each vnet has its own queue, as a NIC for a network with vnets must have: one
    // vnet out of credits does not hold back the others.
    void pump() {
        for (auto& q : outbox_)
            while (!q.empty() && net_.inject(node_, q.front().view())) q.pop_front();
    }

    bool deliver(const PacketView& p) override {
        if (accept && !accept(p)) return false;
        log.push_back({net_.kernel().now(), StoredPacket(p)});
        return true;
    }
    void injection_ready() override { pump(); }
    Network& network() { return net_; }

    std::size_t unsent() const {
        std::size_t n = 0;
        for (const auto& q : outbox_) n += q.size();
        return n;
    }

    std::vector<Delivery> log;
    std::function<bool(const PacketView&)> accept;  // empty: accept everything

private:
    Network& net_;
    NodeId node_;
    std::array<std::deque<StoredPacket>, NetworkParams::kMaxVnets> outbox_;
};

// A TestNic on every node.
inline std::vector<std::unique_ptr<TestNic>> make_nics(Network& net) {
    std::vector<std::unique_ptr<TestNic>> nics;
    for (NodeId n = 0; n < net.nodes(); ++n) nics.push_back(std::make_unique<TestNic>(net, n));
    return nics;
}

}  // namespace niclab::net::testing
