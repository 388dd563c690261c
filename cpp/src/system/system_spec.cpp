#include "niclab/system/system_spec.hpp"

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
}  // namespace

SystemSpec SystemSpec::from_json(const nlohmann::json& j) {
    if (!j.is_object()) throw ConfigError("<spec>", std::string("expected an object, got ") + j.type_name());
    SystemSpec s;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        const auto& v = *it;
        if (key == "preset") {
            if (!v.is_string()) throw ConfigError(key, std::string("expected a string, got ") + v.type_name());
            s.preset = v.get<std::string>();
        } else if (key == "nodes") {
            s.nodes = integer<uint32_t>(v, key, 1, 1 << 20);
        } else if (key == "seed") {
            s.seed = integer<uint64_t>(v, key, 0, INT64_MAX);
        } else if (key == "set") {
            if (!v.is_object()) throw ConfigError(key, std::string("expected an object, got ") + v.type_name());
            s.overrides = v;
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
        } else {
            throw ConfigError(key, "unknown key (expected preset, nodes, seed, set, firmware)");
        }
    }
    if (s.firmware.size() > 1 && s.firmware.size() != s.nodes)
        throw ConfigError("firmware", "gives " + std::to_string(s.firmware.size()) + " images for " +
                                          std::to_string(s.nodes) + " nodes (give one, or one per node)");
    return s;
}

nlohmann::json SystemSpec::to_json() const {
    nlohmann::json j{{"preset", preset}, {"nodes", nodes}, {"seed", seed}, {"set", overrides}};
    if (!firmware.empty()) j["firmware"] = firmware;
    return j;
}

}  // namespace niclab::system
