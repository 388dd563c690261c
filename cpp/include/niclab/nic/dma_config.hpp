#pragma once
// Timing of the DMA engines' path to host memory (HyperTransport, seed 000 §2 and
// seed 001 §2). Values come from the preset, which cites them.
#include <cstdint>

#include "niclab/sim/time.hpp"

namespace niclab::nic {

struct DmaConfig {
    Time host_read_latency = Time::ns(160);  // first byte of a DMA read from host memory
    uint64_t host_bandwidth_mb_s = 2800;     // HT payload rate per direction (MB/s)
    uint64_t host_memory_bytes = uint64_t(2) << 30;  // DMA beyond this is a host fault
    uint32_t rx_buffer_bytes = 4096;         // per RX slot, before deposit commands arrive
};

}  // namespace niclab::nic
