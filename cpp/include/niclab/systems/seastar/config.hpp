#pragma once
// Everything that describes one SeaStar NIC: the embedded core's part (core, SRAM,
// MMIO timing, boot timeout) and the SeaStar's own devices, the HyperTransport host
// bridge and the DMA engines. Filled from the preset (presets/seastar.json), whose
// parameters each cite their source.
#include <cstdint>

#include "niclab/nic/embedded_nic_config.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::seastar {

struct HostBridgeConfig {
    Time read_latency = Time::ns(160);     // firmware load from host memory, round trip
    Time write_occupancy = Time::ns(16);   // a posted store's use of the link
};

// Timing of the DMA engines' path to host memory (HyperTransport, seed 000 §2 and
// seed 001 §2).
struct DmaConfig {
    Time host_read_latency = Time::ns(160);  // first byte of a DMA read from host memory
    uint64_t host_bandwidth_mb_s = 2800;     // HT payload rate per direction (MB/s)
    uint64_t host_memory_bytes = uint64_t(2) << 30;  // DMA beyond this is a host fault
    uint32_t rx_buffer_bytes = 4096;         // per RX slot, before deposit commands arrive
};

struct SeaStarConfig {
    nic::EmbeddedNicConfig embedded;  // the 384 KB SRAM and the control block at hw.h's addresses
    HostBridgeConfig host_bridge;
    DmaConfig dma;
};

}  // namespace niclab::seastar
