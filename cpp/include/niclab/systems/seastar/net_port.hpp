#pragma once
// Joins a SeaStar's DMA engines to its port on the network: packets the TX engine injects
// go to net::Network, packets the network delivers go to the RX engine, and the flow
// control signals pass both ways.
#include "niclab/net/network.hpp"
#include "niclab/systems/seastar/seastar_nic.hpp"

namespace niclab::seastar {

class NetPort final : public nic::PacketPort, public net::NetworkEndpoint {
public:
    NetPort(net::Network& network, SeaStar& nic) : network_(network), nic_(nic) {
        network_.attach(nic.node_id(), this);
        nic_.attach_network(this);
    }
    ~NetPort() override {
        network_.attach(nic_.node_id(), nullptr);
        nic_.attach_network(nullptr);
    }
    NetPort(const NetPort&) = delete;
    NetPort& operator=(const NetPort&) = delete;

    bool inject(const net::Packet& p) override { return network_.inject(nic_.node_id(), p); }
    bool inject_ahead(const net::Packet& p, Time at) override { return network_.inject_ahead(nic_.node_id(), p, at); }
    void receive_ready() override { network_.endpoint_ready(nic_.node_id()); }
    bool deliver(const net::PacketView& p) override { return nic_.rx_dma().deliver(p); }
    void injection_ready() override { nic_.tx_dma().injection_ready(); }
    sim::Kernel::Lane lane() const override { return network_.lane(); }

private:
    net::Network& network_;
    SeaStar& nic_;
};

}  // namespace niclab::seastar
