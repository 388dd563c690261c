#pragma once
// The Cray SeaStar of Red Storm (seeds 000, 001): an embedded-core NIC (PowerPC 440,
// modelled as niclab's RV32IM core) on HyperTransport, running C Portals firmware;
// the generic-mode Portals driver (SsNal) on the host. What the rest of niclab needs
// to reach that is SeaStar-specific goes through here.
#include <cstdint>
#include <vector>

#include "niclab/system/preset.hpp"
#include "niclab/system/system.hpp"
#include "niclab/system/system_model.hpp"
#include "niclab/systems/seastar/accel_nal.hpp"
#include "niclab/systems/seastar/seastar_nic.hpp"
#include "niclab/systems/seastar/ss_nal.hpp"
#include "niclab/systems/seastar/system_params.hpp"

namespace niclab::seastar {

const system::SystemModel& model();

// Every SeaStar parameter with its range (whole numbers: cycle costs, sizes, ns).
std::vector<system::ParameterDecl> parameters();
// The NIC, host, PIO, Portals and network configuration of node `node_id`.
SystemParams params(const system::Preset& preset, uint32_t node_id);
// The same for a SeaStar system's node 0 (the PIO and Portals costs are per system).
SystemParams params(system::System& sys);

// The generic-mode Portals driver (SeaStar NAL) of a node running the Portals
// firmware, started on first use with the preset's PIO and Portals costs. A firmware
// reload retires it (its interfaces then refuse work) and the next call starts a fresh
// one. Throws niclab::Error if the node runs other firmware or is not a SeaStar.
SsNal& portals(system::System& sys, size_t node);

// The accelerated process `pid` of a node running firmware built with one
// (portals_accel): its user-level NAL, set up through the kernel driver on first use.
// Throws niclab::Error for other firmware, PortalsError for a second pid.
AccelNal& accelerated(system::System& sys, size_t node, portals::ptl_pid_t pid);

// The SeaStar of node `node` (its DMA engines and host bridge beside the embedded core
// that System::nic gives). Throws niclab::Error if the node is not a SeaStar.
SeaStar& seastar_nic(system::System& sys, size_t node);

}  // namespace niclab::seastar
