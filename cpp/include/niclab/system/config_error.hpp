#pragma once
#include <string>

#include "niclab/sim/error.hpp"

namespace niclab::system {

// A system spec that cannot be used. key_path() names the offending key, e.g.
// "set.core.clock_mhz".
class ConfigError : public Error {
public:
    ConfigError(std::string key_path, const std::string& problem)
        : Error(key_path + ": " + problem), key_path_(std::move(key_path)) {}
    const std::string& key_path() const { return key_path_; }

private:
    std::string key_path_;
};

}  // namespace niclab::system
