#include "niclab/systems/seastar/seastar_nic.hpp"

#include "niclab/fw/hw.h"

namespace niclab::seastar {

namespace {
nic::EmbeddedNicConfig embedded_config(const SeaStarConfig& cfg) {
    nic::EmbeddedNicConfig c = cfg.embedded;
    c.sram = fw::SramLayout{NICLAB_SRAM_SIZE, NICLAB_SRAM_CACHED_BASE, NICLAB_SRAM_UNCACHED_BASE};
    c.control_base = NICLAB_CTRL_BASE;
    return c;
}
}  // namespace

SeaStar::SeaStar(sim::Kernel& kernel, const SeaStarConfig& cfg, bus::HyperTransport& bus)
    : cfg_(cfg),
      bus_(bus),
      nic_(kernel, embedded_config(cfg)),
      host_bridge_(bus),
      host_bridge_registers_(host_bridge_),
      tx_dma_(kernel, bus, cfg.dma, cfg.embedded.node_id,
              [this](uint32_t sources) { nic_.control().raise_external(sources); }),
      rx_dma_(kernel, bus, cfg.dma, [this](uint32_t sources) { nic_.control().raise_external(sources); }) {
    // hw.h's map. Reset order at load: control block, TX, RX (the host bridge's windows
    // belong to the host driver and survive a reload).
    nic::MemoryMap& map = nic_.memory_map();
    map.map(0, NICLAB_HOST_WINDOW_COUNT * NICLAB_HOST_WINDOW_SIZE, host_bridge_);
    map.map(NICLAB_TXDMA_BASE, NICLAB_TXDMA_SIZE, tx_dma_);
    map.map(NICLAB_RXDMA_BASE, NICLAB_RXDMA_SIZE, rx_dma_);
    map.map(NICLAB_HB_BASE, HostBridge::kWindows * NICLAB_HB_WINDOW_STRIDE, host_bridge_registers_);
    // What the core does reaches the network through the TX engine, whose first packet
    // waits for its first read of host memory (TxDma::try_start: dma_read_stream answers
    // a DMA read latency after the request at the soonest), or through the RX engine
    // letting in a packet the network holds for it (RxDma::set_reach).
    rx_dma_.set_reach(cfg.embedded.node_id, bus.params().dma_read_latency);
}

}  // namespace niclab::seastar
