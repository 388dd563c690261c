#pragma once
// A cluster described as data: which preset, how many nodes, the seed, parameter
// overrides and per-node firmware. Parsed from JSON (Python passes dicts or TOML
// through the same path); every error names its key path.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace niclab::system {

struct SystemSpec {
    std::string preset = "seastar";
    uint32_t nodes = 1;
    uint64_t seed = 0;
    nlohmann::json overrides = nlohmann::json::object();  // "set": parameter -> value
    std::vector<std::string> firmware;  // empty, one for all nodes, or one per node

    static SystemSpec from_json(const nlohmann::json& j);  // throws ConfigError
    nlohmann::json to_json() const;
};

}  // namespace niclab::system
