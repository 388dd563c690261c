#pragma once
// Topologies described as data: {"kind": NAME, ...} read by the builder registered
// for NAME. Each builder checks its own keys and names them in errors as
// "topology.<key>", so a system spec's error points at the key to fix. Built in:
//   direct      two NICs on one cable (no keys)
//   mesh        "dims": [x, y, z], optional "wrap": [bx, by, bz] (default no wrap)
//   torus       the same, wrapping in every dimension unless "wrap" says otherwise
//   fat_tree    two levels: "leaves", "nodes_per_leaf", "spines"
//   kary_ntree  "arity" (k), "levels" (n): k^n nodes (arity 2: a binary fat tree)
//   crossbar    one switch, optional "ports" (default: one per node)
// A new kind registers its builder with register_topology().
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "niclab/net/network_error.hpp"
#include "niclab/net/topology.hpp"

namespace niclab::net {

// A JSON topology description that cannot be built; key_path() is "topology.<key>".
class TopologyConfigError : public NetworkError {
public:
    TopologyConfigError(std::string key_path, const std::string& problem)
        : NetworkError(key_path + ": " + problem), key_path_(std::move(key_path)), problem_(problem) {}
    const std::string& key_path() const { return key_path_; }
    const std::string& problem() const { return problem_; }

private:
    std::string key_path_;
    std::string problem_;
};

// Builds a spec from a description whose "kind" is this builder's. `nodes` is the
// system's node count, for kinds whose size may default to it.
using TopologyBuilder = std::function<TopologySpec(const nlohmann::json& description, uint32_t nodes)>;

struct TopologyKind {
    std::string name;
    std::string keys;  // for help and error messages, e.g. "dims, wrap"
    TopologyBuilder build;
};

// Adds (or replaces) a kind.
void register_topology(TopologyKind kind);
std::vector<std::string> topology_kinds();
// The spec `description` names; throws TopologyConfigError naming the key.
TopologySpec topology_from_json(const nlohmann::json& description, uint32_t nodes);
// Nodes a spec connects.
uint64_t topology_nodes(const TopologySpec& spec);

// Helpers for builders: a whole number in [min, max] (a value, a required key, an
// optional key), and a check that every key of `description` is in `known` ("kind"
// always is). `key` is named as "topology.<key>".
uint32_t topology_value(const nlohmann::json& value, const std::string& key, int64_t min, int64_t max);
uint32_t topology_integer(const nlohmann::json& description, const std::string& key, int64_t min, int64_t max);
uint32_t topology_integer_or(const nlohmann::json& description, const std::string& key, int64_t min, int64_t max,
                             uint32_t fallback);
void topology_known_keys(const nlohmann::json& description, const std::vector<std::string>& known);

}  // namespace niclab::net
