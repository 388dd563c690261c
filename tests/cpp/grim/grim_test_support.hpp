#pragma once
// A GRIM System (LANai NICs running the grim firmware) and helpers for tests that
// drive endpoints directly.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "niclab/systems/grim/grim.hpp"
#include "test_bytes.hpp"
#include "test_processes.hpp"

namespace niclab::grim::test {

inline std::string firmware(const char* name = "grim") { return std::string(NICLAB_FIRMWARE_DIR) + "/grim/" + name + ".elf"; }

inline system::SystemSpec spec(uint32_t nodes = 2, nlohmann::json set = nlohmann::json::object(), const char* preset = "grim-lanai9",
                               const char* fw = "grim") {
    nlohmann::json j = {{"preset", preset}, {"nodes", nodes}, {"seed", 3}, {"firmware", {firmware(fw)}}};
    if (!set.empty()) j["set"] = set;
    return system::SystemSpec::from_json(j);
}

using niclab::test::payload;
using niclab::test::read;

// A node's registered memory by virtual address (the process's own loads and stores).
inline std::vector<uint8_t> vread(system::System& sys, size_t node, uint32_t va, uint32_t n) {
    std::vector<uint8_t> b(n);
    endpoint(sys, node).memory().read(sys.host_memory(node), va, b);
    return b;
}
inline void vwrite(system::System& sys, size_t node, uint32_t va, const std::vector<uint8_t>& b) {
    endpoint(sys, node).memory().write(sys.host_memory(node), va, b);
}

// Runs `f`: the key of the MulticastError it throws, its message added to `messages`;
// "(none)" if it throws none.
inline std::string multicast_error_key(const std::function<void()>& f, std::vector<std::string>& messages) {
    try {
        f();
        return "(none)";
    } catch (const MulticastError& e) {
        messages.push_back(e.what());
        return e.key();
    }
}

}  // namespace niclab::grim::test
