#pragma once
// Myrinet's per-packet CRC-8, computed by the sending LANai's network DMA over the
// packet's bytes behind the route and checked by the receiving one (lanai.cpp).
// assumption: polynomial x^8 + x^2 + x + 1 (0x07), initial value 0, no reflection
// (CRC-8-CCITT, the common CRC-8); the thesis does not describe Myrinet's CRC and
// ANSI/VITA 26 (its ref. [3]) is not in the seeds. Any CRC-8 detects every one-bit
// error, which is all the network's error model flips (link.cpp).
#include <array>
#include <cstdint>
#include <span>

namespace niclab::grim {

inline uint8_t myrinet_crc8(std::span<const uint8_t> bytes, uint8_t crc = 0) {
    static constexpr std::array<uint8_t, 256> table = [] {
        std::array<uint8_t, 256> t{};
        for (unsigned i = 0; i < 256; ++i) {
            uint8_t c = uint8_t(i);
            for (int b = 0; b < 8; ++b) c = uint8_t((c & 0x80) ? (c << 1) ^ 0x07 : c << 1);
            t[i] = c;
        }
        return t;
    }();
    for (uint8_t b : bytes) crc = table[crc ^ b];
    return crc;
}

}  // namespace niclab::grim
