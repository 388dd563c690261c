#pragma once
// GRIM's global active-message handler server (seed 004 §4.4.1, L1139-1141): "GRIM
// dedicates a single node in the cluster for providing global handler registration ...
// The server correlates submissions and assigns unique integer identifiers for each
// string identifier", published to every node. One per system (node 0's serves); an
// endpoint registers a name here to learn its id and keeps its own function for it, so
// the same name means the same id on every node and each node runs its own handler.
// Registration is set-up, untimed ("generally only takes place during system
// initialization"; the thesis measures none of it).
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "niclab/sim/error.hpp"

namespace niclab::grim {

class HandlerServer {
public:
    // The name's id, assigned at its first submission (1, 2, ...; 0 is no handler).
    uint32_t submit(const std::string& name) {
        // The header carries a handler in 16 bits (GRIM_W3).
        if (!ids_.count(name) && ids_.size() >= 0xFFFE) throw Error("GRIM's handler server: no id left for '" + name + "'");
        const auto [it, added] = ids_.try_emplace(name, uint32_t(ids_.size() + 1));
        return it->second;
    }
    std::optional<uint32_t> find(const std::string& name) const {
        const auto it = ids_.find(name);
        if (it == ids_.end()) return std::nullopt;
        return it->second;
    }

private:
    std::map<std::string, uint32_t> ids_;
};

}  // namespace niclab::grim
