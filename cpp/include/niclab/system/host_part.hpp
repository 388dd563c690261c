#pragma once
// The host part every system has: its CPU model and OS costs. Every system declares
// these parameters (its presets cite the host they model), and System builds each
// node's HostCpu from them.
#include <vector>

#include "niclab/host/host_config.hpp"
#include "niclab/system/preset.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::system {

// host.null_trap_ns, host.interrupt_entry_ns, host.interrupt_exit_ns,
// host.context_switch_ns, host.address_space_switch_ns, host.copy_bandwidth_mb_s,
// host.cores.
std::vector<ParameterDecl> host_parameters();
host::HostConfig host_config(const Preset& preset);

// A picosecond time from a parameter in ns or us that may have a fraction.
Time time_ns(double ns);
Time time_us(double us);

}  // namespace niclab::system
