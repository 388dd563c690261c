#pragma once
// The benchmark payload: a pattern that depends on the seed, the sending node and the
// message size, and on each byte's position, so any misplaced, missing or stale byte
// shows. Every transport writes it on send and checks it on receive.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "niclab/host/host_memory.hpp"

namespace niclab::msg {

uint64_t pattern_key(uint64_t seed, uint32_t from, uint64_t bytes);
// Byte `first + i` of pattern `key` into out[i]; `first` a multiple of 8.
void pattern_chunk(uint64_t key, uint64_t first, std::span<uint8_t> out);
// Writes `bytes` of pattern `key` at `addr`.
void fill_pattern(host::HostMemory& memory, uint64_t addr, uint64_t bytes, uint64_t key);
// Checks `bytes` at `addr` hold pattern `key` (from offset `first`); throws
// TransportError "node N received wrong data in a B-byte WHAT from node P at offset
// O: expected .., found .." on the first difference.
void check_pattern(const host::HostMemory& memory, uint64_t addr, uint64_t bytes, uint64_t key, uint32_t node,
                   uint32_t peer, std::string_view what, uint64_t first = 0);

}  // namespace niclab::msg
