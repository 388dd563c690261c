#include "niclab/system/preset.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "niclab/system/config_error.hpp"
#include "niclab/system/system_params.hpp"
#include "preset_data.hpp"

namespace niclab::system {

namespace {

using Setter = void (*)(SystemParams&, int64_t);

// Where each preset parameter goes in the NIC's configuration, and the values it may
// take (cycle costs stay below 128 so an instruction's cost fits its decoded slot).
struct Mapping {
    int64_t min, max;
    Setter apply;
};

const std::map<std::string, Mapping>& mappings() {
    static const std::map<std::string, Mapping> table = {
        {"core.clock_mhz", {1, 100000, [](auto& p, int64_t v) { p.nic.core.clock_mhz = v; }}},
        {"core.cpi_alu", {1, 128, [](auto& p, int64_t v) { p.nic.core.cpi_alu = uint32_t(v); }}},
        {"core.cpi_load", {1, 128, [](auto& p, int64_t v) { p.nic.core.cpi_load = uint32_t(v); }}},
        {"core.cpi_store", {1, 128, [](auto& p, int64_t v) { p.nic.core.cpi_store = uint32_t(v); }}},
        {"core.cpi_mul", {1, 128, [](auto& p, int64_t v) { p.nic.core.cpi_mul = uint32_t(v); }}},
        {"core.cpi_div", {1, 128, [](auto& p, int64_t v) { p.nic.core.cpi_div = uint32_t(v); }}},
        {"core.cpi_csr", {1, 128, [](auto& p, int64_t v) { p.nic.core.cpi_csr = uint32_t(v); }}},
        {"core.taken_branch_penalty", {0, 1000, [](auto& p, int64_t v) { p.nic.core.taken_branch_penalty = uint32_t(v); }}},
        {"core.trap_penalty", {0, 1000, [](auto& p, int64_t v) { p.nic.core.trap_penalty = uint32_t(v); }}},
        {"core.icache.size_bytes", {4, 16777216, [](auto& p, int64_t v) { p.nic.core.icache.size_bytes = uint32_t(v); }}},
        {"core.icache.line_bytes", {4, 4096, [](auto& p, int64_t v) { p.nic.core.icache.line_bytes = uint32_t(v); }}},
        {"core.icache.ways", {1, 4096, [](auto& p, int64_t v) { p.nic.core.icache.ways = uint32_t(v); }}},
        {"core.dcache.size_bytes", {4, 16777216, [](auto& p, int64_t v) { p.nic.core.dcache.size_bytes = uint32_t(v); }}},
        {"core.dcache.line_bytes", {4, 4096, [](auto& p, int64_t v) { p.nic.core.dcache.line_bytes = uint32_t(v); }}},
        {"core.dcache.ways", {1, 4096, [](auto& p, int64_t v) { p.nic.core.dcache.ways = uint32_t(v); }}},
        {"core.sram_read_cycles", {0, 127, [](auto& p, int64_t v) { p.nic.core.sram_read_cycles = uint32_t(v); }}},
        {"core.sram_write_cycles", {0, 1000, [](auto& p, int64_t v) { p.nic.core.sram_write_cycles = uint32_t(v); }}},
        {"core.line_beat_cycles", {0, 1000, [](auto& p, int64_t v) { p.nic.core.line_beat_cycles = uint32_t(v); }}},
        {"core.bus_bytes_per_beat", {1, 4096, [](auto& p, int64_t v) { p.nic.core.bus_bytes_per_beat = uint32_t(v); }}},
        {"core.posted_writes", {1, 64, [](auto& p, int64_t v) { p.nic.core.posted_writes = uint32_t(v); }}},
        {"core.watchdog_us", {0, 1000000000, [](auto& p, int64_t v) { p.nic.core.watchdog_cycles = uint64_t(v * p.nic.core.clock_mhz); }}},
        {"host_bridge.read_latency_ns", {0, 1000000000, [](auto& p, int64_t v) { p.nic.host_bridge.read_latency = Time::ns(v); }}},
        {"host_bridge.write_occupancy_ns", {0, 1000000000, [](auto& p, int64_t v) { p.nic.host_bridge.write_occupancy = Time::ns(v); }}},
        {"mmio.read_latency_ns", {0, 1000000000, [](auto& p, int64_t v) { p.nic.mmio_read_latency = Time::ns(v); }}},
        {"mmio.write_occupancy_ns", {0, 1000000000, [](auto& p, int64_t v) { p.nic.mmio_write_occupancy = Time::ns(v); }}},
        {"boot_timeout_us", {1, 1000000000, [](auto& p, int64_t v) { p.nic.boot_timeout = Time::us(v); }}},
        {"ras.heartbeat_timeout_us", {0, 1000000000, [](auto&, int64_t) {}}},  // read by System
        {"dma.host_read_latency_ns", {0, 1000000000, [](auto& p, int64_t v) { p.nic.dma.host_read_latency = Time::ns(v); }}},
        {"dma.host_bandwidth_mb_s", {1, 1000000, [](auto& p, int64_t v) { p.nic.dma.host_bandwidth_mb_s = uint64_t(v); }}},
        {"dma.host_memory_mb", {1, 1 << 24, [](auto& p, int64_t v) { p.nic.dma.host_memory_bytes = uint64_t(v) << 20; }}},
        {"dma.rx_buffer_bytes", {64, 1 << 24, [](auto& p, int64_t v) { p.nic.dma.rx_buffer_bytes = uint32_t(v); }}},
        {"host.null_trap_ns", {0, 1000000000, [](auto& p, int64_t v) { p.host.null_trap = Time::ns(v); }}},
        {"host.interrupt_entry_ns", {0, 1000000000, [](auto& p, int64_t v) { p.host.interrupt_entry = Time::ns(v); }}},
        {"host.interrupt_exit_ns", {0, 1000000000, [](auto& p, int64_t v) { p.host.interrupt_exit = Time::ns(v); }}},
        {"host.copy_bandwidth_mb_s", {1, 1000000, [](auto& p, int64_t v) { p.host.copy_bandwidth_mb_s = uint64_t(v); }}},
        {"host.cores", {1, 64, [](auto& p, int64_t v) { p.host.cores = unsigned(v); }}},
        {"host.pio_read_ns", {0, 1000000000, [](auto& p, int64_t v) { p.pio.read = Time::ns(v); }}},
        {"host.pio_write_ns", {0, 1000000000, [](auto& p, int64_t v) { p.pio.write = Time::ns(v); }}},
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
        {"net.bit_errors_per_1e15", {0, 1000000000000000, [](auto& p, int64_t v) { p.net.link.bit_error_rate = double(v) * 1e-15; }}},
    };
    return table;
}

void flatten(const nlohmann::json& j, const std::string& prefix, std::map<std::string, const nlohmann::json*>& out,
             const std::string& path_prefix) {
    if (!j.is_object())
        throw ConfigError(path_prefix.empty() ? "set" : path_prefix, "expected an object of parameters");
    for (auto it = j.begin(); it != j.end(); ++it) {
        std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
        if (it->is_object()) flatten(*it, key, out, path_prefix);
        else out[key] = &*it;
    }
}

}  // namespace

std::vector<std::string> Preset::names() {
    std::vector<std::string> n;
    for (const auto& [name, text] : preset_sources()) n.emplace_back(name);
    return n;
}

Preset Preset::named(const std::string& name) {
    for (const auto& [preset_name, text] : preset_sources()) {
        if (preset_name != name) continue;
        auto j = nlohmann::json::parse(text);
        Preset p;
        p.name_ = j.at("name");
        p.description_ = j.value("description", "");
        for (auto& [key, entry] : j.at("parameters").items()) {
            if (!mappings().count(key)) throw std::logic_error("preset " + name + " has unmapped parameter " + key);
            p.params_.push_back(Parameter{key, entry.at("value"), entry.value("unit", ""), entry.at("source")});
        }
        return p;
    }
    std::string known;
    for (const auto& n : names()) known += (known.empty() ? "" : ", ") + n;
    throw ConfigError("preset", "unknown preset '" + name + "' (known: " + known + ")");
}

void Preset::apply_overrides(const nlohmann::json& overrides, const std::string& path_prefix) {
    std::map<std::string, const nlohmann::json*> flat;
    flatten(overrides, "", flat, path_prefix);
    for (const auto& [key, value] : flat) {
        std::string path = path_prefix.empty() ? key : path_prefix + "." + key;
        auto it = std::find_if(params_.begin(), params_.end(), [&](const Parameter& p) { return p.key == key; });
        if (it == params_.end()) throw ConfigError(path, "unknown parameter of preset '" + name_ + "'");
        if (!value->is_number_integer() && !(value->is_number_float() && value->get<double>() == double(int64_t(value->get<double>()))))
            throw ConfigError(path, std::string("expected an integer (") + it->unit + "), got " + value->type_name());
        int64_t v = value->is_number_integer() ? value->get<int64_t>() : int64_t(value->get<double>());
        const Mapping& m = mappings().at(key);
        if (v < m.min || v > m.max)
            throw ConfigError(path, "value " + std::to_string(v) + " out of range [" + std::to_string(m.min) + ", " +
                                        std::to_string(m.max) + "]");
        it->value = v;
        it->source = "override";
    }
}

void Preset::check_cache_geometry(const std::string& cache) const {
    int64_t size = value(cache + ".size_bytes"), line = value(cache + ".line_bytes"), ways = value(cache + ".ways");
    if (line & (line - 1)) throw ConfigError("set." + cache + ".line_bytes", "must be a power of two");
    if (size % (line * ways) != 0) {
        // Blame the key the user changed: that is the one to look at.
        std::string key = cache + ".size_bytes";
        for (const char* k : {".ways", ".line_bytes"})
            for (const auto& p : params_)
                if (p.key == cache + k && p.source == "override") key = p.key;
        throw ConfigError("set." + key, "size_bytes (" + std::to_string(size) + ") must be a multiple of line_bytes x ways (" +
                                            std::to_string(line * ways) + ")");
    }
}

int64_t Preset::value(const std::string& key) const {
    for (const auto& p : params_)
        if (p.key == key) return p.value;
    throw ConfigError(key, "unknown parameter of preset '" + name_ + "'");
}

nic::NicConfig Preset::nic_config(uint32_t node_id) const { return params(node_id).nic; }

SystemParams Preset::params(uint32_t node_id) const {
    SystemParams cfg;
    cfg.nic.node_id = node_id;
    // The clock first: time-valued parameters in microseconds convert through it.
    mappings().at("core.clock_mhz").apply(cfg, value("core.clock_mhz"));
    for (const auto& p : params_) mappings().at(p.key).apply(cfg, p.value);
    for (const char* cache : {"core.icache", "core.dcache"}) check_cache_geometry(cache);
    return cfg;
}

}  // namespace niclab::system
