#pragma once
// StarT-X words as little-endian bytes (message.hpp says why little-endian: niclab's
// hosts are, and on the UltraSPARC the bridge's byte lanes would swap at no cost). One
// place for the conversions the NIU, JAM, the Arctic port and the transports all need.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace niclab::startx {

// The 32-bit word at p[0..3].
inline uint32_t load_le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
// Word `i` (counted in words) of a byte span.
inline uint32_t load_le32(std::span<const uint8_t> bytes, std::size_t i) { return load_le32(bytes.data() + 4 * i); }

inline void store_le32(uint8_t* p, uint32_t w) {
    for (int b = 0; b < 4; ++b) p[b] = uint8_t(w >> (8 * b));
}
inline void store_le32(std::span<uint8_t> bytes, std::size_t i, uint32_t w) { store_le32(bytes.data() + 4 * i, w); }

// The four bytes of one word, e.g. for a single 4-byte PIO store.
inline std::array<uint8_t, 4> le32_bytes(uint32_t w) {
    return {uint8_t(w), uint8_t(w >> 8), uint8_t(w >> 16), uint8_t(w >> 24)};
}

}  // namespace niclab::startx
