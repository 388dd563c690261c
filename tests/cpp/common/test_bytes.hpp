#pragma once
// Test payloads of real bytes and reading them back from a node's host memory, shared
// by the system tests that drive host libraries directly (DSNIC, GRIM).
#include <cstdint>
#include <vector>

#include "niclab/system/system.hpp"

namespace niclab::test {

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

}  // namespace niclab::test
