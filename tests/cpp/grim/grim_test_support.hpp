#pragma once
// A GRIM System (LANai NICs running the grim firmware) and helpers for tests that
// drive endpoints directly.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "niclab/systems/grim/grim.hpp"
#include "test_processes.hpp"

namespace niclab::grim::test {

inline std::string firmware(const char* name = "grim") { return std::string(NICLAB_FIRMWARE_DIR) + "/grim/" + name + ".elf"; }

inline system::SystemSpec spec(uint32_t nodes = 2, nlohmann::json set = nlohmann::json::object(), const char* preset = "grim-lanai9",
                               const char* fw = "grim") {
    nlohmann::json j = {{"preset", preset}, {"nodes", nodes}, {"seed", 3}, {"firmware", {firmware(fw)}}};
    if (!set.empty()) j["set"] = set;
    return system::SystemSpec::from_json(j);
}

// Message k of length n: bytes that differ per message and position.
inline std::vector<uint8_t> payload(uint64_t n, uint32_t k) {
    std::vector<uint8_t> b(n);
    for (uint64_t i = 0; i < n; ++i) b[i] = uint8_t((i * 131 + k * 17 + (i >> 8)) ^ 0x5A);
    return b;
}

inline std::vector<uint8_t> read(system::System& sys, size_t node, uint64_t addr, uint64_t n) {
    std::vector<uint8_t> b(n);
    sys.host_memory(node).read(addr, b);
    return b;
}

}  // namespace niclab::grim::test
