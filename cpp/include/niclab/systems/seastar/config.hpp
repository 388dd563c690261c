#pragma once
// Everything that describes one SeaStar NIC: the embedded core's part (core, SRAM,
// MMIO timing, boot timeout) and the SeaStar's own DMA engines. The timing of the path
// to host memory (HyperTransport) is the bus's (bus::HyperTransportParams). Filled from
// the preset (presets/seastar.json), whose parameters each cite their source.
#include <cstdint>

#include "niclab/nic/embedded_nic_config.hpp"

namespace niclab::seastar {

// The DMA engines' limits (their timing is the bus's).
struct DmaConfig {
    uint64_t host_memory_bytes = uint64_t(2) << 30;  // DMA beyond this is a host fault
    uint32_t rx_buffer_bytes = 4096;         // per RX slot, before deposit commands arrive
};

struct SeaStarConfig {
    nic::EmbeddedNicConfig embedded;  // the 384 KB SRAM and the control block at hw.h's addresses
    DmaConfig dma;
};

}  // namespace niclab::seastar
