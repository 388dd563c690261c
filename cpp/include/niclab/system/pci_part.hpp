#pragma once
// The PCI host-bus part (bus::PciBus) shared by every system whose NIC sits on PCI
// through an AMCC S5933 (the StarT-X of seed 002, the DSNIC of seed 003): the
// parameter declarations and their mapping onto bus::PciParams, declared once here so
// the systems' presets cite their own values for the same keys.
#include <vector>

#include "niclab/bus/pci.hpp"
#include "niclab/system/preset.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::system {

// bus.clock_hz, bus.width_bytes, bus.pio_read_{small,large}_{bytes,ns},
// bus.host_path_latency_ns, bus.store_buffer_entries, bus.merge_limit_bytes,
// bus.merge_window_ns, bus.store_issue_ns, bus.address_cycles,
// bus.write_overhead_cycles, bus.dma_burst_bytes, bus.dma_overhead_cycles,
// bus.dma_read_latency_ns, bus.dma_write_ends_read_prefetch, bus.interrupt_latency_ns.
std::vector<ParameterDecl> pci_parameters();
bus::PciParams pci_params(const Preset& preset);

}  // namespace niclab::system
