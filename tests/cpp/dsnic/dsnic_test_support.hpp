#pragma once
// A two-node DSNIC System and CSP channels between node 0 (sender) and node 1
// (receiver), with payloads of real bytes the test writes and checks itself.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "niclab/systems/dsnic/csp.hpp"
#include "niclab/systems/dsnic/model.hpp"
#include "test_processes.hpp"

namespace niclab::dsnic::test {

inline constexpr uint64_t kSend = 0x100000, kRecv = 0x4000000;
inline constexpr uint8_t kGuard = 0xEE;

inline system::SystemSpec spec(uint32_t packet_bytes, nlohmann::json more = nlohmann::json::object()) {
    nlohmann::json set = {{"dsnic.packet_bytes", packet_bytes}};
    for (auto& [k, v] : more.items()) set[k] = v;
    return system::SystemSpec::from_json({{"system", "dsnic"}, {"nodes", 2}, {"seed", 7}, {"set", set}});
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

}  // namespace niclab::dsnic::test
