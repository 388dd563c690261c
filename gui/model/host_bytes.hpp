#pragma once
// A node's host memory as strings of bytes: what the injectors write as a payload and
// read back to check (untimed: the host's own loads and stores, not simulated ones).
#include <cstdint>
#include <string>

#include "niclab/host/host_memory.hpp"

namespace niclab::gui {

inline std::string read_bytes(const host::HostMemory& mem, uint64_t addr, uint64_t n) {
    std::string out(n, '\0');
    mem.read(addr, {reinterpret_cast<uint8_t*>(out.data()), out.size()});
    return out;
}

inline void write_bytes(host::HostMemory& mem, uint64_t addr, const std::string& data) {
    mem.write(addr, {reinterpret_cast<const uint8_t*>(data.data()), data.size()});
}

// How many of `got`'s bytes equal `want`'s at the same place.
inline uint64_t matching_bytes(const std::string& got, const std::string& want) {
    uint64_t n = 0;
    for (size_t i = 0; i < got.size() && i < want.size(); ++i) n += got[i] == want[i];
    return n;
}

}  // namespace niclab::gui
