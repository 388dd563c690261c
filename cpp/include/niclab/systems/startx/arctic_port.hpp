#pragma once
// The StarT-X NIU's network port on the Arctic Switch Fabric modelled by net::Network
// (seed 002 §2 L91, §5.1 L151): each StarT-X message (header words + payload, 16-96 B) is
// one network packet whose payload is the message's words; the wire adds the 16-bit CRC
// (the network's overhead_bytes). The priority bit selects the virtual network (high =
// vnet 0, which the routers serve first: congestion in high can hold low back, not the
// reverse, L151); the random up-route bit becomes the packet's random_up_route (a random
// up port at each fat-tree level, no FIFO order). A message with a fixed up-route follows
// the network's table route to its destination (net's fat tree picks the up port by
// destination; the header's explicit up-route bits are not modelled separately), which is
// one fixed path per pair and so FIFO, as L151 requires.
//
// Model metadata travels in header fields the routers ignore: the message CRC in
// message_crc, the RDMA flag (WireMessage::rdma) in message_id.
#include <array>
#include <optional>

#include "niclab/net/network.hpp"
#include "niclab/systems/startx/port.hpp"

namespace niclab::startx {

class ArcticPort final : public NetworkPort, public net::NetworkEndpoint {
public:
    ArcticPort(net::Network& network, uint32_t node);
    ~ArcticPort() override;
    ArcticPort(const ArcticPort&) = delete;
    ArcticPort& operator=(const ArcticPort&) = delete;

    // NetworkPort (the NIU side)
    void attach(PortListener& listener) override { listener_ = &listener; }
    bool can_inject(Priority vnet) const override { return !held_[uint32_t(vnet)].has_value(); }
    void inject(const WireMessage& m) override;
    void receive_space_freed(Priority vnet) override;

    // net::NetworkEndpoint (the network side)
    bool deliver(const net::PacketView& packet) override;
    void injection_ready() override;

    static uint8_t vnet_of(Priority p) { return p == Priority::high ? 0 : 1; }

private:
    bool try_inject(const WireMessage& m);

    net::Network& network_;
    uint32_t node_;
    PortListener* listener_ = nullptr;
    // A message the network had no credit for, per vnet: the NIU waits for injection_ready.
    std::array<std::optional<WireMessage>, kPriorities> held_;
};

// The network parameters of the Arctic for StarT-X messages: 96-byte payload capacity,
// two virtual networks, the CRC as wire overhead (callers fill link rate and delays).
net::NetworkParams arctic_network_params(double wire_mb_s, uint32_t overhead_bytes, Time router_delay, Time link_latency,
                                         uint32_t input_buffers, uint32_t receive_buffers);

}  // namespace niclab::startx
