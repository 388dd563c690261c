#include "niclab/system/preset.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "niclab/system/config_error.hpp"
#include "preset_data.hpp"

namespace niclab::system {

namespace {

using Setter = std::function<void(nic::NicConfig&, int64_t)>;

// Where each preset parameter goes in the NIC's configuration.
const std::map<std::string, Setter>& setters() {
    static const std::map<std::string, Setter> table = {
        {"core.clock_mhz", [](auto& c, int64_t v) { c.core.clock_mhz = v; }},
        {"core.cpi_alu", [](auto& c, int64_t v) { c.core.cpi_alu = uint32_t(v); }},
        {"core.cpi_load", [](auto& c, int64_t v) { c.core.cpi_load = uint32_t(v); }},
        {"core.cpi_store", [](auto& c, int64_t v) { c.core.cpi_store = uint32_t(v); }},
        {"core.cpi_mul", [](auto& c, int64_t v) { c.core.cpi_mul = uint32_t(v); }},
        {"core.cpi_div", [](auto& c, int64_t v) { c.core.cpi_div = uint32_t(v); }},
        {"core.cpi_csr", [](auto& c, int64_t v) { c.core.cpi_csr = uint32_t(v); }},
        {"core.taken_branch_penalty", [](auto& c, int64_t v) { c.core.taken_branch_penalty = uint32_t(v); }},
        {"core.trap_penalty", [](auto& c, int64_t v) { c.core.trap_penalty = uint32_t(v); }},
        {"core.icache.size_bytes", [](auto& c, int64_t v) { c.core.icache.size_bytes = uint32_t(v); }},
        {"core.icache.line_bytes", [](auto& c, int64_t v) { c.core.icache.line_bytes = uint32_t(v); }},
        {"core.icache.ways", [](auto& c, int64_t v) { c.core.icache.ways = uint32_t(v); }},
        {"core.dcache.size_bytes", [](auto& c, int64_t v) { c.core.dcache.size_bytes = uint32_t(v); }},
        {"core.dcache.line_bytes", [](auto& c, int64_t v) { c.core.dcache.line_bytes = uint32_t(v); }},
        {"core.dcache.ways", [](auto& c, int64_t v) { c.core.dcache.ways = uint32_t(v); }},
        {"core.sram_read_cycles", [](auto& c, int64_t v) { c.core.sram_read_cycles = uint32_t(v); }},
        {"core.sram_write_cycles", [](auto& c, int64_t v) { c.core.sram_write_cycles = uint32_t(v); }},
        {"core.line_beat_cycles", [](auto& c, int64_t v) { c.core.line_beat_cycles = uint32_t(v); }},
        {"core.bus_bytes_per_beat", [](auto& c, int64_t v) { c.core.bus_bytes_per_beat = uint32_t(v); }},
        {"core.posted_writes", [](auto& c, int64_t v) { c.core.posted_writes = uint32_t(v); }},
        {"core.watchdog_us", [](auto& c, int64_t v) { c.core.watchdog_cycles = uint64_t(v * c.core.clock_mhz); }},
        {"host_bridge.read_latency_ns", [](auto& c, int64_t v) { c.host_bridge.read_latency = Time::ns(v); }},
        {"host_bridge.write_occupancy_ns", [](auto& c, int64_t v) { c.host_bridge.write_occupancy = Time::ns(v); }},
        {"mmio.read_latency_ns", [](auto& c, int64_t v) { c.mmio_read_latency = Time::ns(v); }},
        {"mmio.write_occupancy_ns", [](auto& c, int64_t v) { c.mmio_write_occupancy = Time::ns(v); }},
        {"boot_timeout_us", [](auto& c, int64_t v) { c.boot_timeout = Time::us(v); }},
    };
    return table;
}

// Parameters whose value must be at least 1 (a zero would divide by zero or stall forever).
bool must_be_positive(const std::string& key) {
    return key == "core.clock_mhz" || key.ends_with("size_bytes") || key.ends_with("line_bytes") ||
           key.ends_with("ways") || key == "core.bus_bytes_per_beat" || key == "core.posted_writes" ||
           key.starts_with("core.cpi_");
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
            if (!setters().count(key)) throw std::logic_error("preset " + name + " has unmapped parameter " + key);
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
        if (v < 0 || (v == 0 && must_be_positive(key)))
            throw ConfigError(path, "value " + std::to_string(v) + " out of range");
        it->value = v;
        it->source = "override";
    }
}

int64_t Preset::value(const std::string& key) const {
    for (const auto& p : params_)
        if (p.key == key) return p.value;
    throw ConfigError(key, "unknown parameter of preset '" + name_ + "'");
}

nic::NicConfig Preset::nic_config(uint32_t node_id) const {
    nic::NicConfig cfg;
    cfg.node_id = node_id;
    // The clock first: time-valued parameters in microseconds convert through it.
    setters().at("core.clock_mhz")(cfg, value("core.clock_mhz"));
    for (const auto& p : params_) setters().at(p.key)(cfg, p.value);
    return cfg;
}

}  // namespace niclab::system
