#pragma once
// The cluster the user picked: a preset, a node count, a topology and a seed, or a
// spec file (JSON, the same keys the Python API and the CLI take). Turned into a
// SystemSpec by the core's own parser, so a bad value is the core's ConfigError naming
// the key path.
#include <cstdint>
#include <string>
#include <vector>

#include "niclab/system/system_spec.hpp"

namespace niclab::gui {

struct SpecChoice {
    std::string preset = "seastar";
    uint32_t nodes = 2;
    uint64_t seed = 0;
    std::string topology;   // a topology on one line (net/topology_text.hpp), or empty for the system's default
    std::string spec_file;  // when set, it is the spec and the fields above are unused
};

// Throws InputError (unreadable or malformed file, unknown firmware image) or
// system::ConfigError (a bad key), each naming what is wrong.
system::SystemSpec build_spec(const SpecChoice& choice);

}  // namespace niclab::gui
