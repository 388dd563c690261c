#pragma once
// Reads a NIC's trace ring through the debug back door (seed 000 §3.3: the SMW fetched
// any node's trace buffer at any time): the ring in SRAM and the count register, with
// no simulated time charged to the firmware.
#include "niclab/trace/trace.hpp"

namespace niclab::nic {

class EmbeddedNic;

// Where the firmware's ring is, from its descriptor `niclab_trace` (trace.h).
struct RingInfo {
    uint32_t descriptor = 0;  // address of niclab_trace
    uint32_t ring = 0;        // address of the ring (uncached view)
    uint32_t entries = 0;     // a power of two
    unsigned index_reg = 4;   // tp
};

// Throws TraceError if the NIC has no firmware, the firmware was built without
// tracing (no niclab_trace symbol), or the descriptor in SRAM is not valid.
RingInfo find_ring(const EmbeddedNic& nic);

// The ring's records, oldest first (after a wrap: the last `entries` records), with
// 64-bit timestamps unwrapped back from the core's current mcycle.
trace::Trace read_trace(const EmbeddedNic& nic);

}  // namespace niclab::nic
