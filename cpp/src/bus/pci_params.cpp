// PciParams: validation and the timing formulas every PCI transaction uses.
#include <cmath>
#include <string>

#include "niclab/bus/pci.hpp"

namespace niclab::bus {

namespace {
[[noreturn]] void bad(const std::string& field, const std::string& why) {
    throw BusConfigError("PciParams." + field + ": " + why);
}
bool power_of_two(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

void PciParams::validate() const {
    if (!std::isfinite(clock_hz) || clock_hz < 1e6 || clock_hz > 1e9)
        bad("clock_hz", "must be between 1 MHz and 1 GHz, got " + std::to_string(clock_hz));
    if (width_bytes != 4 && width_bytes != 8)
        bad("width_bytes", "must be 4 (32-bit) or 8 (64-bit), got " + std::to_string(width_bytes));
    if (read_small_bytes == 0 || read_large_bytes <= read_small_bytes)
        bad("read_large_bytes", "must exceed read_small_bytes (> 0)");
    if (read_small_cost <= Time{} || read_large_cost < read_small_cost)
        bad("read_large_cost", "read costs must be positive and not fall with size");
    if (host_path_latency < Time{}) bad("host_path_latency", "must not be negative");
    if (read_stall(4) <= host_path_latency * 2)
        bad("host_path_latency", "twice it must be below the 4-byte read stall");
    if (store_buffer_entries == 0 || store_buffer_entries > 64)
        bad("store_buffer_entries", "must be 1..64");
    if (!power_of_two(merge_limit_bytes) || merge_limit_bytes < 4 || merge_limit_bytes > 64)
        bad("merge_limit_bytes", "must be a power of two in 4..64");
    if (merge_window < Time{}) bad("merge_window", "must not be negative");
    if (store_issue_cost < Time{}) bad("store_issue_cost", "must not be negative");
    if (address_cycles == 0) bad("address_cycles", "must be at least 1");
    if (dma_burst_bytes < 4 || dma_burst_bytes % 4 != 0)
        bad("dma_burst_bytes", "must be a positive multiple of 4");
    if (dma_read_latency < Time{}) bad("dma_read_latency", "must not be negative");
    if (interrupt_latency < Time{}) bad("interrupt_latency", "must not be negative");
}

Time PciParams::cycles(uint64_t n) const {
    return Time::ps(std::llround(double(n) * 1e12 / clock_hz));
}

Time PciParams::read_stall(uint32_t bytes) const {
    // Linear through (read_small_bytes, read_small_cost) and (read_large_bytes, read_large_cost).
    const double slope = double((read_large_cost - read_small_cost).ps()) /
                         double(read_large_bytes - read_small_bytes);
    const double ps = double(read_small_cost.ps()) + (double(bytes) - double(read_small_bytes)) * slope;
    return Time::ps(std::llround(ps));
}

Time PciParams::write_occupancy(uint32_t bytes) const {
    return cycles(address_cycles + (bytes + width_bytes - 1) / width_bytes + write_overhead_cycles);
}

Time PciParams::dma_burst_occupancy(uint32_t bytes) const {
    return cycles(address_cycles + (bytes + width_bytes - 1) / width_bytes + dma_overhead_cycles);
}

}  // namespace niclab::bus
