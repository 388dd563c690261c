#pragma once
// The SeaStar NIC (seed 000 §2): an embedded-core NIC (nic::EmbeddedNic) with the
// SeaStar's devices on its memory map at hw.h's addresses: the HyperTransport host
// bridge's fifteen windows onto host memory and their registers, the TX DMA engine and
// the RX DMA engine. All three reach host memory only through the HyperTransport link
// (bus::HyperTransport) the node owns. The system joins the engines to the network
// (NetPort).
#include <cstdint>
#include <memory>

#include "niclab/bus/hypertransport.hpp"
#include "niclab/nic/embedded_nic.hpp"
#include "niclab/nic/packet_port.hpp"
#include "niclab/systems/seastar/config.hpp"
#include "niclab/systems/seastar/host_bridge.hpp"
#include "niclab/systems/seastar/rx_dma.hpp"
#include "niclab/systems/seastar/tx_dma.hpp"

namespace niclab::seastar {

class SeaStar {
public:
    SeaStar(sim::Kernel& kernel, const SeaStarConfig& cfg, bus::HyperTransport& bus);
    SeaStar(const SeaStar&) = delete;
    SeaStar& operator=(const SeaStar&) = delete;

    // The embedded core, its SRAM, the firmware loader and the debug back door.
    nic::EmbeddedNic& nic() { return nic_; }
    const nic::EmbeddedNic& nic() const { return nic_; }
    uint32_t node_id() const { return nic_.node_id(); }
    const SeaStarConfig& config() const { return cfg_; }

    // The link to the host: its PIO and the engines' DMA share it.
    bus::HyperTransport& bus() { return bus_; }
    HostBridge& host_bridge() { return host_bridge_; }
    TxDma& tx_dma() { return tx_dma_; }
    RxDma& rx_dma() { return rx_dma_; }
    // Wire the DMA engines to the network (the system does this).
    void attach_network(nic::PacketPort* port) {
        tx_dma_.set_port(port);
        rx_dma_.set_port(port);
    }

private:
    SeaStarConfig cfg_;
    bus::HyperTransport& bus_;
    nic::EmbeddedNic nic_;  // first: the devices raise its control block's interrupts
    HostBridge host_bridge_;
    HostBridge::Registers host_bridge_registers_;
    TxDma tx_dma_;
    RxDma rx_dma_;
};

}  // namespace niclab::seastar
