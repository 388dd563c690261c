#include "niclab/system/system_spec.hpp"

#include <algorithm>
#include <utility>

#include "niclab/net/topology_registry.hpp"
#include "niclab/system/config_error.hpp"

namespace niclab::system {

namespace {
template <typename T>
T integer(const nlohmann::json& v, const std::string& key, int64_t min, int64_t max) {
    if (!v.is_number_integer()) throw ConfigError(key, std::string("expected an integer, got ") + v.type_name());
    int64_t i = v.get<int64_t>();
    if (i < min || i > max) throw ConfigError(key, "value " + std::to_string(i) + " out of range");
    return T(i);
}

// "capture": PATH or {"file": PATH, "nodes": [...], "links": [...]}, normalised to the object.
nlohmann::json capture_from_json(const nlohmann::json& v) {
    if (v.is_null()) return v;
    nlohmann::json c = v.is_string() ? nlohmann::json{{"file", v}} : v;
    if (!c.is_object()) throw ConfigError("capture", std::string("expected a file path or an object, got ") + v.type_name());
    for (auto it = c.begin(); it != c.end(); ++it) {
        const std::string key = "capture." + it.key();
        if (it.key() == "file") {
            if (!it->is_string() || it->get<std::string>().empty())
                throw ConfigError(key, "expected the path of the pcapng file to write");
        } else if (it.key() == "nodes" || it.key() == "links") {
            if (!it->is_array()) throw ConfigError(key, std::string("expected a list of ids, got ") + it->type_name());
            for (size_t i = 0; i < it->size(); ++i) integer<uint32_t>((*it)[i], key + "[" + std::to_string(i) + "]", 0, UINT32_MAX);
        } else {
            throw ConfigError(key, "unknown key (expected file, nodes, links)");
        }
    }
    if (!c.contains("file")) throw ConfigError("capture.file", "missing: the path of the pcapng file to write");
    return c;
}

// The simulation's modes, each a boolean key (system_spec.hpp says what each does),
// recorded by to_json() when it is not its default.
constexpr std::pair<const char*, bool SystemSpec::*> kModes[] = {
    {"lookahead", &SystemSpec::lookahead},
    {"lookahead_hops", &SystemSpec::lookahead_hops},
    {"credit_events", &SystemSpec::credit_events},
    {"send_ahead", &SystemSpec::send_ahead},
    {"lanes", &SystemSpec::lanes},
    {"fire_inline", &SystemSpec::fire_inline},
    {"run_ahead", &SystemSpec::run_ahead},
};

bool SystemSpec::*mode_named(const std::string& key) {
    for (const auto& [name, mode] : kModes)
        if (key == name) return mode;
    return nullptr;
}
}  // namespace

SystemSpec SystemSpec::from_json(const nlohmann::json& j) {
    if (!j.is_object()) throw ConfigError("<spec>", std::string("expected an object, got ") + j.type_name());
    SystemSpec s;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        const auto& v = *it;
        if (key == "preset" || key == "system") {
            if (!v.is_string()) throw ConfigError(key, std::string("expected a string, got ") + v.type_name());
            (key == "preset" ? s.preset : s.system) = v.get<std::string>();
        } else if (key == "nodes") {
            s.nodes = integer<uint32_t>(v, key, 1, kMaxNodes);
        } else if (key == "seed") {
            s.seed = integer<uint64_t>(v, key, 0, INT64_MAX);
        } else if (key == "set") {
            if (!v.is_object()) throw ConfigError(key, std::string("expected an object, got ") + v.type_name());
            s.overrides = v;
        } else if (key == "parts") {
            if (!v.is_object()) throw ConfigError(key, std::string("expected an object {kind: part name}, got ") + v.type_name());
            for (auto it2 = v.begin(); it2 != v.end(); ++it2)
                if (!it2->is_string()) throw ConfigError("parts." + it2.key(), "expected a part name");
            s.parts = v;
        } else if (key == "topology") {
            if (!v.is_object()) throw ConfigError(key, std::string("expected an object, got ") + v.type_name());
            s.topology = v;
        } else if (key == "firmware") {
            if (v.is_string()) {
                s.firmware = {v.get<std::string>()};
            } else if (v.is_array()) {
                for (size_t i = 0; i < v.size(); ++i) {
                    if (!v[i].is_string())
                        throw ConfigError("firmware[" + std::to_string(i) + "]", "expected a path string");
                    s.firmware.push_back(v[i].get<std::string>());
                }
            } else {
                throw ConfigError(key, "expected a path or a list of paths");
            }
        } else if (key == "capture") {
            s.capture = capture_from_json(v);
        } else if (bool SystemSpec::*mode = mode_named(key)) {
            if (!v.is_boolean()) throw ConfigError(key, std::string("expected true or false, got ") + v.type_name());
            s.*mode = v.get<bool>();
        } else {
            throw ConfigError(key, "unknown key (expected system, preset, nodes, seed, parts, set, firmware, topology, "
                                   "capture, lookahead, lookahead_hops, credit_events, send_ahead, lanes, fire_inline, "
                                   "run_ahead)");
        }
    }
    if (j.contains("system") && !j.contains("preset")) s.preset.clear();  // the system's default preset
    if (s.firmware.size() > 1 && s.firmware.size() != s.nodes)
        throw ConfigError("firmware", "gives " + std::to_string(s.firmware.size()) + " images for " +
                                          std::to_string(s.nodes) + " nodes (give one, or one per node)");
    // Validate the description's keys now, naming the key; whether it connects as many
    // terminals as the nodes have ports is known once the preset is (System).
    if (s.has_network() && !s.topology.is_null()) {
        try {
            net::topology_from_json(s.topology, s.nodes);
        } catch (const net::TopologyConfigError& e) {
            throw ConfigError(e.key_path(), e.problem());
        }
    }
    return s;
}

net::TopologySpec SystemSpec::topology_spec(const nlohmann::json& fallback, uint32_t ports) const {
    if (topology.is_null() && !fallback.is_null()) {
        SystemSpec with = *this;
        with.topology = fallback;
        return with.topology_spec(nullptr, ports);
    }
    const uint64_t terminals = uint64_t(nodes) * ports;
    net::TopologySpec spec = net::DirectCable{};
    if (topology.is_null()) {
        // With no model's default (SystemModel::default_topology): a direct cable for two
        // nodes, a line of routers (an N x 1 x 1 mesh) for more.
        if (nodes != 2) spec = net::Mesh3D{{nodes, 1, 1}, {false, false, false}};
    } else {
        try {
            spec = net::topology_from_json(topology, uint32_t(terminals));  // each kind checks its own keys
        } catch (const net::TopologyConfigError& e) {
            throw ConfigError(e.key_path(), e.problem());
        }
    }
    const uint64_t count = net::topology_nodes(spec);
    if (count != terminals)
        throw ConfigError("topology", "connects " + std::to_string(count) + " nodes but the system has " +
                                          std::to_string(nodes) +
                                          (ports == 1 ? "" : " nodes of " + std::to_string(ports) + " network ports each (" +
                                                                 std::to_string(terminals) + " terminals)"));
    return spec;
}

nlohmann::json SystemSpec::to_json() const {
    nlohmann::json j{{"preset", preset}, {"nodes", nodes}, {"seed", seed}, {"set", overrides}};
    if (!system.empty()) j["system"] = system;
    if (!parts.empty()) j["parts"] = parts;
    if (!topology.is_null()) j["topology"] = topology;
    if (!firmware.empty()) j["firmware"] = firmware;
    static const SystemSpec defaults;
    for (const auto& [name, mode] : kModes)
        if (this->*mode != defaults.*mode) j[name] = this->*mode;
    return j;
}

}  // namespace niclab::system
