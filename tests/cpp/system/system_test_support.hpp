#pragma once
// What the system tests share: the key path of the ConfigError a spec raises.
#include <string>

#include <nlohmann/json.hpp>

#include "niclab/system/config_error.hpp"
#include "niclab/system/system.hpp"

namespace niclab::system {

// The key path of the ConfigError that parsing and building `spec` raises ("" if none).
inline std::string error_key_path(const nlohmann::json& spec, std::string* message = nullptr) {
    try {
        System sys(SystemSpec::from_json(spec));
    } catch (const ConfigError& e) {
        if (message) *message = e.what();
        return e.key_path();
    }
    return "";
}

}  // namespace niclab::system
