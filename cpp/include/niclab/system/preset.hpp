#pragma once
// Hardware presets: named sets of parameters, each with its unit and the source it
// comes from (a seed section or a datasheet). A preset plus overrides gives the
// NicConfig of every node.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "niclab/nic/nic_config.hpp"
#include "niclab/system/system_params.hpp"

namespace niclab::system {

struct Parameter {
    std::string key;      // "core.clock_mhz"
    int64_t value = 0;
    std::string unit;
    std::string source;   // citation
};

class Preset {
public:
    static Preset named(const std::string& name);  // throws ConfigError("preset", ...)
    static std::vector<std::string> names();

    const std::string& name() const { return name_; }
    const std::string& description() const { return description_; }
    const std::vector<Parameter>& parameters() const { return params_; }

    // Override parameters from a flat or nested JSON object of integers; errors name
    // the key path under `path_prefix` (e.g. "set").
    void apply_overrides(const nlohmann::json& overrides, const std::string& path_prefix);
    nic::NicConfig nic_config(uint32_t node_id) const;
    SystemParams params(uint32_t node_id) const;
    int64_t value(const std::string& key) const;  // throws ConfigError

private:
    void check_cache_geometry(const std::string& cache) const;  // throws ConfigError

    std::string name_, description_;
    std::vector<Parameter> params_;
};

}  // namespace niclab::system
