#pragma once
// Copies of a packet's bytes on the packet path (host memory, the network's packet pool,
// a receive engine's buffer, a posted write): nearly all are exactly 64 bytes, a SeaStar
// packet's payload and a DMA engine's unit. That size is copied as a constant, in a few
// vector moves inline; any other size goes to the library's memcpy, out of line (inlined
// with a run-time size the compiler chose `rep movs`, whose start-up was most of a packet's
// copy; the library's calls for 64-byte copies were most of the 8 % a 1 B-8 MB sweep
// spent in memmove).
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace niclab::sim {

[[gnu::noinline]] inline void copy_any_bytes(uint8_t* to, const uint8_t* from, size_t n) { std::memcpy(to, from, n); }

inline void copy_bytes(uint8_t* to, const uint8_t* from, size_t n) {
    if (n == 64) std::memcpy(to, from, 64);
    else copy_any_bytes(to, from, n);
}

}  // namespace niclab::sim
