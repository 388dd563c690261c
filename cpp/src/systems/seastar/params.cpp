// The SeaStar's parameters: where each preset value goes in the NIC's, the host's and
// the network's configuration, and the values it may take (cycle costs stay below 128
// so an instruction's cost fits its decoded slot).
#include <map>

#include "niclab/system/config_error.hpp"
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
        {"core.clock_mhz", {1, 100000, [](auto& p, int64_t v) { p.nic.embedded.core.clock_mhz = v; }}},
        {"core.cpi_alu", {1, 128, [](auto& p, int64_t v) { p.nic.embedded.core.cpi_alu = uint32_t(v); }}},
        {"core.cpi_load", {1, 128, [](auto& p, int64_t v) { p.nic.embedded.core.cpi_load = uint32_t(v); }}},
        {"core.cpi_store", {1, 128, [](auto& p, int64_t v) { p.nic.embedded.core.cpi_store = uint32_t(v); }}},
        {"core.cpi_mul", {1, 128, [](auto& p, int64_t v) { p.nic.embedded.core.cpi_mul = uint32_t(v); }}},
        {"core.cpi_div", {1, 128, [](auto& p, int64_t v) { p.nic.embedded.core.cpi_div = uint32_t(v); }}},
        {"core.cpi_csr", {1, 128, [](auto& p, int64_t v) { p.nic.embedded.core.cpi_csr = uint32_t(v); }}},
        {"core.taken_branch_penalty", {0, 1000, [](auto& p, int64_t v) { p.nic.embedded.core.taken_branch_penalty = uint32_t(v); }}},
        {"core.trap_penalty", {0, 1000, [](auto& p, int64_t v) { p.nic.embedded.core.trap_penalty = uint32_t(v); }}},
        {"core.icache.size_bytes", {4, 16777216, [](auto& p, int64_t v) { p.nic.embedded.core.icache.size_bytes = uint32_t(v); }}},
        {"core.icache.line_bytes", {4, 4096, [](auto& p, int64_t v) { p.nic.embedded.core.icache.line_bytes = uint32_t(v); }}},
        {"core.icache.ways", {1, 4096, [](auto& p, int64_t v) { p.nic.embedded.core.icache.ways = uint32_t(v); }}},
        {"core.dcache.size_bytes", {4, 16777216, [](auto& p, int64_t v) { p.nic.embedded.core.dcache.size_bytes = uint32_t(v); }}},
        {"core.dcache.line_bytes", {4, 4096, [](auto& p, int64_t v) { p.nic.embedded.core.dcache.line_bytes = uint32_t(v); }}},
        {"core.dcache.ways", {1, 4096, [](auto& p, int64_t v) { p.nic.embedded.core.dcache.ways = uint32_t(v); }}},
        {"core.sram_read_cycles", {0, 127, [](auto& p, int64_t v) { p.nic.embedded.core.sram_read_cycles = uint32_t(v); }}},
        {"core.sram_write_cycles", {0, 1000, [](auto& p, int64_t v) { p.nic.embedded.core.sram_write_cycles = uint32_t(v); }}},
        {"core.line_beat_cycles", {0, 1000, [](auto& p, int64_t v) { p.nic.embedded.core.line_beat_cycles = uint32_t(v); }}},
        {"core.bus_bytes_per_beat", {1, 4096, [](auto& p, int64_t v) { p.nic.embedded.core.bus_bytes_per_beat = uint32_t(v); }}},
        {"core.posted_writes", {1, 64, [](auto& p, int64_t v) { p.nic.embedded.core.posted_writes = uint32_t(v); }}},
        {"core.watchdog_us", {0, 1000000000, [](auto& p, int64_t v) { p.nic.embedded.core.watchdog_cycles = uint64_t(v * p.nic.embedded.core.clock_mhz); }}},
        {"host_bridge.read_latency_ns", {0, 1000000000, [](auto& p, int64_t v) { p.bus.bridge_read_latency = Time::ns(v); }}},
        {"host_bridge.write_occupancy_ns", {0, 1000000000, [](auto& p, int64_t v) { p.bus.bridge_write_occupancy = Time::ns(v); }}},
        {"mmio.read_latency_ns", {0, 1000000000, [](auto& p, int64_t v) { p.nic.embedded.mmio.read_latency = Time::ns(v); }}},
        {"mmio.write_occupancy_ns", {0, 1000000000, [](auto& p, int64_t v) { p.nic.embedded.mmio.write_occupancy = Time::ns(v); }}},
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

void check_cache_geometry(const system::Preset& p, const std::string& cache) {
    int64_t size = p.integer(cache + ".size_bytes"), line = p.integer(cache + ".line_bytes"), ways = p.integer(cache + ".ways");
    if (line & (line - 1)) throw ConfigError("set." + cache + ".line_bytes", "must be a power of two");
    if (size % (line * ways) != 0) {
        // Blame the key the user changed: that is the one to look at.
        std::string key = cache + ".size_bytes";
        for (const char* k : {".ways", ".line_bytes"})
            for (const auto& param : p.parameters())
                if (param.key == cache + k && param.source == "override") key = param.key;
        throw ConfigError("set." + key, "size_bytes (" + std::to_string(size) + ") must be a multiple of line_bytes x ways (" +
                                            std::to_string(line * ways) + ")");
    }
}

}  // namespace

std::vector<system::ParameterDecl> parameters() {
    std::vector<system::ParameterDecl> out = system::host_parameters();
    for (auto& d : out) d.integer = true;  // the SeaStar preset gives whole nanoseconds
    for (const auto& [key, m] : mappings()) out.push_back({key, "", double(m.min), double(m.max), true});
    return out;
}

SystemParams params(const system::Preset& preset, uint32_t node_id) {
    SystemParams cfg;
    cfg.nic.embedded.node_id = node_id;
    cfg.host = system::host_config(preset);
    // The clock first: time-valued parameters in microseconds convert through it.
    mappings().at("core.clock_mhz").apply(cfg, preset.integer("core.clock_mhz"));
    for (const auto& p : preset.parameters()) {
        auto it = mappings().find(p.key);
        if (it != mappings().end()) it->second.apply(cfg, int64_t(p.value));
    }
    for (const char* cache : {"core.icache", "core.dcache"}) check_cache_geometry(preset, cache);
    return cfg;
}

SystemParams params(system::System& sys) { return params(sys.preset(), 0); }

}  // namespace niclab::seastar
