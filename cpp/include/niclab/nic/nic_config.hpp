#pragma once
// Everything that describes one NIC. Filled from a preset (system/presets) whose
// parameters each cite their source.
#include <cstdint>

#include "niclab/core/core_config.hpp"
#include "niclab/nic/dma_config.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::nic {

struct HostBridgeConfig {
    Time read_latency = Time::ns(160);     // firmware load from host memory, round trip
    Time write_occupancy = Time::ns(16);   // a posted store's use of the link
};

struct NicConfig {
    core::CoreConfig core;
    HostBridgeConfig host_bridge;
    DmaConfig dma;
    Time mmio_read_latency = Time::ns(16);
    Time mmio_write_occupancy = Time::ns(8);
    Time boot_timeout = Time::ms(1);       // the firmware must set its running flag by then
    uint32_t node_id = 0;
};

}  // namespace niclab::nic
