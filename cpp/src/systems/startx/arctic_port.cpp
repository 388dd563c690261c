// The StarT-X port on net::Network (arctic_port.hpp).
#include "niclab/systems/startx/arctic_port.hpp"
#include "niclab/systems/startx/le_word.hpp"

#include <cmath>
#include <string>

namespace niclab::startx {

ArcticPort::ArcticPort(net::Network& network, uint32_t node) : network_(network), node_(node) {
    if (network.params().max_payload < kMaxBytes || network.params().vnets < kPriorities)
        throw StartxError("node " + std::to_string(node) + ": the network carries " +
                          std::to_string(network.params().max_payload) + "-byte payloads on " +
                          std::to_string(network.params().vnets) + " vnets; StarT-X needs 96 bytes and 2 priorities");
    network_.attach(node_, this);
}

ArcticPort::~ArcticPort() { network_.attach(node_, nullptr); }

bool ArcticPort::try_inject(const WireMessage& m) {
    const Header h = m.header();
    net::PacketHeader ph;
    ph.src = node_;
    ph.dst = h.down_route;
    ph.message_id = m.rdma ? 1 : 0;
    ph.head = ph.tail = true;
    ph.length = uint16_t(m.msg.bytes());
    ph.vnet = vnet_of(h.priority);
    ph.random_up_route = h.random_up;
    ph.message_bytes = m.msg.bytes();
    ph.message_crc = m.crc;
    std::array<uint8_t, kMaxBytes> bytes{};
    m.msg.to_bytes(std::span<uint8_t>(bytes.data(), m.msg.bytes()));
    return network_.inject(node_, net::PacketView(ph, std::span<const uint8_t>(bytes.data(), m.msg.bytes())));
}

void ArcticPort::inject(const WireMessage& m) {
    const uint32_t v = uint32_t(m.header().priority);
    if (held_[v]) throw StartxError("node " + std::to_string(node_) + ": inject while a message waits for credit");
    if (!try_inject(m)) held_[v] = m;
}

void ArcticPort::injection_ready() {
    for (uint32_t v = 0; v < kPriorities; ++v) {
        if (!held_[v] || !try_inject(*held_[v])) continue;
        held_[v].reset();
        if (listener_) listener_->injection_ready(Priority(v));
    }
}

bool ArcticPort::deliver(const net::PacketView& p) {
    const std::size_t n = p.payload.size();
    if (n % 4 || n < 4 * (kHeaderWords + kMinPayloadWords) || n > kMaxBytes)
        throw StartxError("node " + std::to_string(node_) + ": a " + std::to_string(n) + "-byte packet is no StarT-X message");
    WireMessage w;
    w.msg.n_words = uint8_t(n / 4);
    for (std::size_t i = 0; i < n / 4; ++i)
        w.msg.words[i] = load_le32(&p.payload[4 * i]);
    w.crc = uint16_t(p.message_crc);
    w.source = p.src;
    w.rdma = p.message_id == 1;
    return listener_ && listener_->offer(w);
}

void ArcticPort::receive_space_freed(Priority) { network_.endpoint_ready(node_); }

net::NetworkParams arctic_network_params(double wire_mb_s, uint32_t overhead_bytes, Time router_delay, Time link_latency,
                                         uint32_t input_buffers, uint32_t receive_buffers) {
    net::NetworkParams np;
    np.link.wire_bytes_per_s = uint64_t(std::llround(wire_mb_s * 1e6));
    np.link.overhead_bytes = overhead_bytes;
    np.link.latency = link_latency;
    np.router_delay = router_delay;
    np.input_buffers = input_buffers;
    np.receive_buffers = receive_buffers;
    np.max_payload = kMaxBytes;
    np.vnets = kPriorities;
    return np;
}

}  // namespace niclab::startx
