#pragma once
// The embedded-core part shared by every system whose NIC runs firmware on niclab's
// RV32IM core (the SeaStar's PowerPC 440, the Myrinet LANai): the core's clock,
// instruction costs, caches, SRAM and MMIO timing and watchdog, declared once here so
// each system's presets cite their own values for the same keys.
#include <vector>

#include "niclab/nic/embedded_nic_config.hpp"
#include "niclab/system/preset.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::system {

// core.clock_mhz, core.cpi_{alu,load,store,mul,div,csr}, core.taken_branch_penalty,
// core.trap_penalty, core.{icache,dcache}.{size_bytes,line_bytes,ways},
// core.sram_{read,write}_cycles, core.line_beat_cycles, core.bus_bytes_per_beat,
// core.posted_writes, core.watchdog_us, mmio.read_latency_ns, mmio.write_occupancy_ns.
std::vector<ParameterDecl> core_parameters();
// Sets `cfg`'s core and MMIO timing from the preset. ConfigError naming the key for a
// cache whose size is not a multiple of line x ways, or whose line is not a power of two.
void apply_core_parameters(const Preset& preset, nic::EmbeddedNicConfig& cfg);

}  // namespace niclab::system
