// The registry of topology kinds: name -> builder, and the helpers builders share.
#include "niclab/net/topology_registry.hpp"

#include <algorithm>
#include <map>

namespace niclab::net {

std::vector<TopologyKind> builtin_topologies();  // topology_kinds.cpp

namespace {
std::map<std::string, TopologyKind>& kinds() {
    // Filled on first use, so no static-initialisation order or linker dead-stripping
    // of a static library can lose the built-in kinds.
    static std::map<std::string, TopologyKind> table = [] {
        std::map<std::string, TopologyKind> t;
        for (TopologyKind& k : builtin_topologies()) {
            const std::string name = k.name;
            t.emplace(name, std::move(k));
        }
        return t;
    }();
    return table;
}

std::string kind_list() {
    std::string out;
    for (const auto& [name, kind] : kinds()) out += (out.empty() ? "" : ", ") + name;
    return out;
}

}  // namespace

void register_topology(TopologyKind kind) {
    auto& table = kinds();
    const std::string name = kind.name;
    table[name] = std::move(kind);
}

std::vector<std::string> topology_kinds() {
    std::vector<std::string> out;
    for (const auto& [name, kind] : kinds()) out.push_back(name);
    return out;
}

TopologySpec topology_from_json(const nlohmann::json& description, uint32_t nodes) {
    if (!description.is_object())
        throw TopologyConfigError("topology", std::string("expected an object, got ") + description.type_name());
    if (!description.contains("kind") || !description["kind"].is_string())
        throw TopologyConfigError("topology.kind", "expected one of " + kind_list());
    const std::string name = description["kind"];
    const auto it = kinds().find(name);
    if (it == kinds().end()) throw TopologyConfigError("topology.kind", "unknown kind '" + name + "' (" + kind_list() + ")");
    try {
        return it->second.build(description, nodes);
    } catch (const TopologyConfigError&) {
        throw;
    } catch (const NetworkError& e) {  // the shape itself is impossible (too large, too many ports)
        throw TopologyConfigError("topology", e.what());
    }
}

uint64_t topology_nodes(const TopologySpec& spec) {
    struct Count {
        uint64_t operator()(const DirectCable& d) const { return 2ull * d.cables; }
        uint64_t operator()(const Mesh3D& m) const { return uint64_t(m.dims[0]) * m.dims[1] * m.dims[2]; }
        uint64_t operator()(const FatTree& f) const { return uint64_t(f.leaves) * f.nodes_per_leaf; }
        uint64_t operator()(const KaryNTree& t) const {
            uint64_t n = 1;
            for (uint32_t l = 0; l < t.levels && n <= (uint64_t(1) << 32); ++l) n *= t.arity;
            return n;
        }
        uint64_t operator()(const Crossbar& c) const { return c.ports; }
    };
    return std::visit(Count{}, spec);
}

uint32_t topology_value(const nlohmann::json& v, const std::string& key, int64_t min, int64_t max) {
    const std::string path = "topology." + key;
    if (!v.is_number_integer()) throw TopologyConfigError(path, std::string("expected an integer, got ") + v.type_name());
    const int64_t i = v.get<int64_t>();
    if (i < min || i > max) throw TopologyConfigError(path, "value " + std::to_string(i) + " out of range");
    return uint32_t(i);
}

uint32_t topology_integer(const nlohmann::json& d, const std::string& key, int64_t min, int64_t max) {
    if (!d.contains(key)) throw TopologyConfigError("topology." + key, "missing");
    return topology_value(d[key], key, min, max);
}

uint32_t topology_integer_or(const nlohmann::json& d, const std::string& key, int64_t min, int64_t max,
                             uint32_t fallback) {
    return d.contains(key) ? topology_value(d[key], key, min, max) : fallback;
}

void topology_known_keys(const nlohmann::json& d, const std::vector<std::string>& known) {
    for (auto it = d.begin(); it != d.end(); ++it)
        if (it.key() != "kind" && std::find(known.begin(), known.end(), it.key()) == known.end())
            throw TopologyConfigError("topology." + it.key(), "unknown key");
}

}  // namespace niclab::net
