#pragma once
// Myrinet's per-packet CRC-8, computed by the sending LANai's network DMA over the
// packet's bytes behind the route and checked by the receiving one (lanai.cpp).
// assumption: polynomial x^8 + x^2 + x + 1 (0x07), initial value 0, no reflection
// (CRC-8-CCITT, the common CRC-8); the thesis does not describe Myrinet's CRC and
// ANSI/VITA 26 (its ref. [3]) is not in the seeds. Any CRC-8 detects every one-bit
// error, which is all the network's error model flips (link.cpp).
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace niclab::grim {

namespace crc8_detail {
// tables[k][x]: the CRC of byte x followed by k zero bytes. Slicing by 8 (as zlib and
// Intel's CRC-32 code do): eight bytes take eight independent lookups XORed together,
// where a byte at a time is a chain of eight dependent ones (a load's latency each: a
// GRIM run spent 9 % of its host time there). The CRC is linear in its input, so the
// result is the same bit for bit.
inline constexpr std::array<std::array<uint8_t, 256>, 8> kTables = [] {
    std::array<std::array<uint8_t, 256>, 8> t{};
    for (unsigned i = 0; i < 256; ++i) {
        uint8_t c = uint8_t(i);
        for (int b = 0; b < 8; ++b) c = uint8_t((c & 0x80) ? (c << 1) ^ 0x07 : c << 1);
        t[0][i] = c;
    }
    for (size_t k = 1; k < 8; ++k)
        for (unsigned i = 0; i < 256; ++i) t[k][i] = t[0][t[k - 1][i]];
    return t;
}();
}  // namespace crc8_detail

inline uint8_t myrinet_crc8(std::span<const uint8_t> bytes, uint8_t crc = 0) {
    const auto& t = crc8_detail::kTables;
    const uint8_t* p = bytes.data();
    size_t i = 0;
    for (; i + 8 <= bytes.size(); i += 8)
        crc = uint8_t(t[7][crc ^ p[i]] ^ t[6][p[i + 1]] ^ t[5][p[i + 2]] ^ t[4][p[i + 3]] ^ t[3][p[i + 4]] ^
                      t[2][p[i + 5]] ^ t[1][p[i + 6]] ^ t[0][p[i + 7]]);
    for (; i < bytes.size(); ++i) crc = t[0][crc ^ p[i]];
    return crc;
}

}  // namespace niclab::grim
