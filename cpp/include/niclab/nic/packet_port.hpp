#pragma once
// How a NIC's DMA engines meet the network: the TX engine injects packets through a
// PacketPort (the system wires it to net::Network); the network hands packets to the
// RX engine. Keeping this small lets the NIC layer stand without the whole network.
#include "niclab/net/packet.hpp"
#include "niclab/sim/kernel.hpp"

namespace niclab::nic {

class PacketPort {
public:
    virtual ~PacketPort() = default;
    // False when the injection link has no credit; the NIC retries on injection_ready().
    virtual bool inject(const net::Packet& p) = 0;
    // inject() as of `at`, later than now, done now where the network can be sure of the
    // outcome already (net::Network::inject_ahead); false, with nothing done, where it
    // cannot: the NIC then injects at `at`.
    virtual bool inject_ahead(const net::Packet&, Time) { return false; }
    // The RX engine freed room after refusing a delivery.
    virtual void receive_ready() = 0;
    // The kernel lane the engine's own events of a transmission join (net::Network::lane).
    virtual sim::Kernel::Lane lane() const { return sim::Kernel::kNoLane; }
};

}  // namespace niclab::nic
