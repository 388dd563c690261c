// The SeaStar's parameters: where each preset value goes in the NIC's, the host's and
// the network's configuration, and the values it may take (the embedded core's keys are
// the shared core part, system/core_part.hpp).
#include <map>

#include "niclab/system/config_error.hpp"
#include "niclab/system/core_part.hpp"
#include "niclab/system/host_part.hpp"
#include "niclab/systems/seastar/seastar.hpp"

namespace niclab::seastar {

namespace {

using system::ConfigError;
using Setter = void (*)(SystemParams&, int64_t);

struct Mapping {
    int64_t min, max;
    Setter apply;
};

const std::map<std::string, Mapping>& mappings() {
    static const std::map<std::string, Mapping> table = {
        {"host_bridge.read_latency_ns", {0, 1000000000, [](auto& p, int64_t v) { p.bus.bridge_read_latency = Time::ns(v); }}},
        {"host_bridge.write_occupancy_ns", {0, 1000000000, [](auto& p, int64_t v) { p.bus.bridge_write_occupancy = Time::ns(v); }}},
        {"boot_timeout_us", {1, 1000000000, [](auto& p, int64_t v) { p.nic.embedded.boot_timeout = Time::us(v); }}},
        {"ras.heartbeat_timeout_us", {0, 1000000000, [](auto&, int64_t) {}}},  // read by System
        {"dma.host_read_latency_ns", {0, 1000000000, [](auto& p, int64_t v) { p.bus.dma_read_latency = Time::ns(v); }}},
        {"dma.read_request_bytes", {4, 4096, [](auto& p, int64_t v) { p.bus.dma_read_bytes = uint32_t(v); }}},
        {"dma.max_outstanding_reads", {1, 4096, [](auto& p, int64_t v) { p.bus.dma_outstanding_reads = uint32_t(v); }}},
        {"dma.host_bandwidth_mb_s", {1, 1000000, [](auto& p, int64_t v) { p.bus.payload_mb_s = uint64_t(v); }}},
        // At least 2 GB: the driver keeps its kernel region just below 2 GB (ss_nal.hpp),
        // and with less the firmware's first event write would fault the host.
        {"dma.host_memory_mb", {2048, 1 << 24, [](auto& p, int64_t v) { p.nic.dma.host_memory_bytes = uint64_t(v) << 20; }}},
        {"dma.rx_buffer_bytes", {64, 1 << 24, [](auto& p, int64_t v) { p.nic.dma.rx_buffer_bytes = uint32_t(v); }}},
        {"host.pio_read_ns", {0, 1000000000, [](auto& p, int64_t v) { p.bus.pio_read = Time::ns(v); }}},
        {"host.pio_write_ns", {0, 1000000000, [](auto& p, int64_t v) { p.bus.pio_write = Time::ns(v); }}},
        {"portals.api_call_ns", {0, 1000000000, [](auto& p, int64_t v) { p.portals.api_call = Time::ns(v); }}},
        {"portals.match_entry_ns", {0, 1000000000, [](auto& p, int64_t v) { p.portals.match_entry = Time::ns(v); }}},
        {"portals.event_ns", {0, 1000000000, [](auto& p, int64_t v) { p.portals.event = Time::ns(v); }}},
        {"portals.portals_event_ns", {0, 1000000000, [](auto& p, int64_t v) { p.portals.portals_event = Time::ns(v); }}},
        {"net.link_payload_mb_s", {1, 1000000, [](auto& p, int64_t v) { p.net.link.payload_bytes_per_s = uint64_t(v) * 1000000; }}},
        {"net.link_latency_ns", {0, 1000000000, [](auto& p, int64_t v) { p.net.link.latency = Time::ns(v); }}},
        {"net.router_delay_ns", {0, 1000000000, [](auto& p, int64_t v) { p.net.router_delay = Time::ns(v); }}},
        {"net.input_buffers", {1, 4096, [](auto& p, int64_t v) { p.net.input_buffers = uint32_t(v); }}},
        {"net.receive_buffers", {1, 4096, [](auto& p, int64_t v) { p.net.receive_buffers = uint32_t(v); }}},
        {"net.link_retry", {0, 1, [](auto& p, int64_t v) { p.net.link.link_retry = v != 0; }}},
        // The TX DMA builds 64-byte packets, so the network must carry at least those.
        {"net.max_payload", {64, 4096, [](auto& p, int64_t v) { p.net.max_payload = uint32_t(v); }}},
        {"net.overhead_bytes", {0, 4096, [](auto& p, int64_t v) { p.net.link.overhead_bytes = uint32_t(v); }}},
        {"net.vnets", {1, 4, [](auto& p, int64_t v) { p.net.vnets = uint32_t(v); }}},
        {"net.flit_bytes", {0, 4096, [](auto& p, int64_t v) { p.net.flit_bytes = uint32_t(v); }}},
        {"net.wormhole", {0, 1, [](auto& p, int64_t v) {
             p.net.switching = v ? net::Switching::Wormhole : net::Switching::VirtualCutThrough;
         }}},
        {"net.bit_errors_per_1e15", {0, 1000000000000000, [](auto& p, int64_t v) { p.net.link.bit_error_rate = double(v) * 1e-15; }}},
    };
    return table;
}

}  // namespace

std::vector<system::ParameterDecl> parameters() {
    std::vector<system::ParameterDecl> out = system::host_parameters();
    for (auto& d : out) d.integer = true;  // the SeaStar preset gives whole nanoseconds
    const auto core = system::core_parameters();
    out.insert(out.end(), core.begin(), core.end());
    for (const auto& [key, m] : mappings()) out.push_back({key, "", double(m.min), double(m.max), true});
    return out;
}

SystemParams params(const system::Preset& preset, uint32_t node_id) {
    SystemParams cfg;
    cfg.nic.embedded.node_id = node_id;
    cfg.host = system::host_config(preset);
    system::apply_core_parameters(preset, cfg.nic.embedded);
    for (const auto& p : preset.parameters()) {
        auto it = mappings().find(p.key);
        if (it != mappings().end()) it->second.apply(cfg, int64_t(p.value));
    }
    return cfg;
}

SystemParams params(system::System& sys) { return params(sys.preset(), 0); }

}  // namespace niclab::seastar
