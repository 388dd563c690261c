// The PCI host-bus part (pci_part.hpp): declared once for every S5933 system.
#include "niclab/system/pci_part.hpp"

#include "niclab/system/host_part.hpp"

namespace niclab::system {

std::vector<ParameterDecl> pci_parameters() {
    return {
        {"bus.clock_hz", "Hz", 1e6, 1e9, false},
        {"bus.width_bytes", "bytes", 4, 8, true},
        {"bus.pio_read_small_bytes", "bytes", 4, 4, true},
        {"bus.pio_read_small_ns", "ns", 1, 1e6, false},
        {"bus.pio_read_large_bytes", "bytes", 8, 64, true},
        {"bus.pio_read_large_ns", "ns", 1, 1e6, false},
        {"bus.host_path_latency_ns", "ns", 0, 1e5, false},
        {"bus.store_buffer_entries", "entries", 1, 64, true},
        {"bus.merge_limit_bytes", "bytes", 4, 64, true},
        {"bus.merge_window_ns", "ns", 0, 1e5, false},
        {"bus.store_issue_ns", "ns", 0, 1e5, false},
        {"bus.address_cycles", "cycles", 1, 2, true},
        {"bus.write_overhead_cycles", "cycles", 0, 64, true},
        {"bus.dma_burst_bytes", "bytes", 4, 4096, true},
        {"bus.dma_overhead_cycles", "cycles", 0, 64, true},
        {"bus.dma_read_latency_ns", "ns", 0, 1e6, false},
        {"bus.dma_write_ends_read_prefetch", "flag", 0, 1, true},
        {"bus.interrupt_latency_ns", "ns", 0, 1e7, false},
    };
}

bus::PciParams pci_params(const Preset& p) {
    bus::PciParams b;
    b.clock_hz = p.value("bus.clock_hz");
    b.width_bytes = uint32_t(p.integer("bus.width_bytes"));
    b.read_small_bytes = uint32_t(p.integer("bus.pio_read_small_bytes"));
    b.read_small_cost = time_ns(p.value("bus.pio_read_small_ns"));
    b.read_large_bytes = uint32_t(p.integer("bus.pio_read_large_bytes"));
    b.read_large_cost = time_ns(p.value("bus.pio_read_large_ns"));
    b.host_path_latency = time_ns(p.value("bus.host_path_latency_ns"));
    b.store_buffer_entries = uint32_t(p.integer("bus.store_buffer_entries"));
    b.merge_limit_bytes = uint32_t(p.integer("bus.merge_limit_bytes"));
    b.merge_window = time_ns(p.value("bus.merge_window_ns"));
    b.store_issue_cost = time_ns(p.value("bus.store_issue_ns"));
    b.address_cycles = uint32_t(p.integer("bus.address_cycles"));
    b.write_overhead_cycles = uint32_t(p.integer("bus.write_overhead_cycles"));
    b.dma_burst_bytes = uint32_t(p.integer("bus.dma_burst_bytes"));
    b.dma_overhead_cycles = uint32_t(p.integer("bus.dma_overhead_cycles"));
    b.dma_read_latency = time_ns(p.value("bus.dma_read_latency_ns"));
    b.dma_write_ends_read_prefetch = p.integer("bus.dma_write_ends_read_prefetch") != 0;
    b.interrupt_latency = time_ns(p.value("bus.interrupt_latency_ns"));
    return b;
}

}  // namespace niclab::system
