#pragma once
// A stand-in NIC for network tests: sends a queue of packets as fast as the
// injection credits allow, and logs what it receives (optionally refusing some
// deliveries and draining its receive buffers slowly).
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "niclab/net/crc.hpp"
#include "niclab/net/network.hpp"

namespace niclab::net::testing {

struct Delivery {
    Time at;
    Packet packet;
};

// Fills a one-packet message with bytes that name it, and its end-to-end CRC.
inline Packet make_packet(NodeId src, NodeId dst, uint32_t message_id, uint8_t length) {
    Packet p;
    p.src = src;
    p.dst = dst;
    p.message_id = message_id;
    p.head = p.tail = true;
    p.length = length;
    for (unsigned i = 0; i < length; ++i) p.payload[i] = uint8_t(src * 131 + message_id * 7 + i * 13);
    p.message_crc = crc32(p.data());
    return p;
}

inline bool payload_intact(const Packet& p) {
    const Packet want = make_packet(p.src, p.dst, p.message_id, p.length);
    return want.payload == p.payload && crc32(p.data()) == p.message_crc;
}

class TestNic : public NetworkEndpoint {
public:
    TestNic(Network& net, NodeId node) : net_(net), node_(node) { net.attach(node, this); }

    void send(const Packet& p) {
        outbox_.push_back(p);
        pump();
    }
    void pump() {
        while (!outbox_.empty() && net_.inject(node_, outbox_.front())) outbox_.pop_front();
    }

    bool deliver(const Packet& p) override {
        if (accept && !accept(p)) return false;
        log.push_back({net_.kernel().now(), p});
        return true;
    }
    void injection_ready() override { pump(); }

    std::size_t unsent() const { return outbox_.size(); }

    std::vector<Delivery> log;
    std::function<bool(const Packet&)> accept;  // empty: accept everything

private:
    Network& net_;
    NodeId node_;
    std::deque<Packet> outbox_;
};

}  // namespace niclab::net::testing
