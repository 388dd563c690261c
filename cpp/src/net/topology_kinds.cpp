// The built-in topology kinds of the registry: each reads and checks its own keys.
#include <algorithm>
#include <array>
#include <string>

#include "niclab/net/topology_registry.hpp"

namespace niclab::net {

namespace {

std::array<uint32_t, 3> dims_of(const nlohmann::json& t) {
    if (!t.contains("dims")) throw TopologyConfigError("topology.dims", "missing (three sizes, x y z)");
    const auto& d = t["dims"];
    if (!d.is_array() || d.size() != 3) throw TopologyConfigError("topology.dims", "expected three sizes [x, y, z]");
    std::array<uint32_t, 3> out{};
    for (size_t i = 0; i < 3; ++i) out[i] = topology_value(d[i], "dims[" + std::to_string(i) + "]", 1, 4096);
    return out;
}

std::array<bool, 3> wrap_of(const nlohmann::json& t, bool all) {
    if (!t.contains("wrap")) return {all, all, all};
    const auto& w = t["wrap"];
    if (!w.is_array() || w.size() != 3) throw TopologyConfigError("topology.wrap", "expected three booleans [x, y, z]");
    std::array<bool, 3> out{};
    for (size_t i = 0; i < 3; ++i) {
        if (!w[i].is_boolean()) throw TopologyConfigError("topology.wrap[" + std::to_string(i) + "]", "expected a boolean");
        out[i] = w[i].get<bool>();
    }
    return out;
}

MeshRouting routing_of(const nlohmann::json& t) {
    if (!t.contains("routing")) return MeshRouting::Computed;
    const auto& r = t["routing"];
    if (r == "computed") return MeshRouting::Computed;
    if (r == "table") return MeshRouting::Table;
    throw TopologyConfigError("topology.routing", "expected \"computed\" (dimension order from the coordinates, the default) or "
                                                  "\"table\" (the same routes from a routers x nodes table), got " + r.dump());
}

TopologySpec mesh(const nlohmann::json& t, bool torus) {
    topology_known_keys(t, {"dims", "wrap", "routing"});
    return Mesh3D{dims_of(t), wrap_of(t, torus), routing_of(t)};
}

}  // namespace

std::vector<TopologyKind> builtin_topologies() {
    constexpr int64_t kBig = 1 << 20;
    return {
        // Pairs of NICs on cables; "cables" defaults to one per two of the system's
        // network ports (a system of two nodes with four links each: four cables).
        {"direct", "cables",
         [](const nlohmann::json& t, uint32_t nodes) -> TopologySpec {
             topology_known_keys(t, {"cables"});
             return DirectCable{topology_integer_or(t, "cables", 1, kBig, std::max<uint32_t>(1, nodes / 2))};
         }},
        {"mesh", "dims, wrap, routing", [](const nlohmann::json& t, uint32_t) { return mesh(t, false); }},
        {"torus", "dims, wrap, routing", [](const nlohmann::json& t, uint32_t) { return mesh(t, true); }},
        {"fat_tree", "leaves, nodes_per_leaf, spines",
         [](const nlohmann::json& t, uint32_t) -> TopologySpec {
             topology_known_keys(t, {"leaves", "nodes_per_leaf", "spines"});
             return FatTree{topology_integer(t, "leaves", 1, kBig), topology_integer(t, "nodes_per_leaf", 1, kBig),
                            topology_integer(t, "spines", 1, kBig)};
         }},
        // A two-level Clos (folded, as the C104 networks of seed 003 §6.1): switches of
        // `ports` ports, half down to terminals and half up, one up-link to each centre
        // switch — the 512-terminal Clos is 32 leaves of 16 and 16 centre switches.
        {"clos", "terminals, ports",
         [](const nlohmann::json& t, uint32_t nodes) -> TopologySpec {
             topology_known_keys(t, {"terminals", "ports"});
             const uint32_t ports = topology_integer_or(t, "ports", 2, 254, 32);
             if (ports % 2) throw TopologyConfigError("topology.ports", "a Clos switch splits its ports in two: even");
             const uint32_t half = ports / 2;
             const uint32_t terminals = topology_integer_or(t, "terminals", 1, 1 << 20, nodes);
             if (terminals % half)
                 throw TopologyConfigError("topology.terminals", std::to_string(terminals) + " terminals do not fill " +
                                                                     std::to_string(ports) + "-port switches of " +
                                                                     std::to_string(half) + " terminals each");
             if (terminals / half > ports)
                 throw TopologyConfigError("topology.terminals", "a two-level Clos of " + std::to_string(ports) +
                                                                     "-port switches reaches at most " +
                                                                     std::to_string(ports * half) + " terminals");
             return FatTree{terminals / half, half, half};
         }},
        {"kary_ntree", "arity, levels",
         [](const nlohmann::json& t, uint32_t) -> TopologySpec {
             topology_known_keys(t, {"arity", "levels"});
             const KaryNTree tree{topology_integer(t, "arity", 1, 127), topology_integer(t, "levels", 1, 18)};
             if (topology_nodes(tree) > (1u << 18))
                 throw TopologyConfigError("topology.levels", "arity^levels is more than 2^18 nodes");
             return tree;
         }},
        {"crossbar", "ports",
         [](const nlohmann::json& t, uint32_t nodes) -> TopologySpec {
             topology_known_keys(t, {"ports"});
             return Crossbar{topology_integer_or(t, "ports", 1, 255, nodes)};
         }},
    };
}

}  // namespace niclab::net
