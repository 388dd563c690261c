#include "niclab/net/crc.hpp"

#include <array>

namespace niclab::net {

namespace {
// Slicing-by-8 tables for the non-reflected CRC-16: kCrc16[k][x] is the CRC register
// contribution of byte x followed by k zero bytes, so eight bytes fold in one step
// (the link CRC runs on every packet of every hop).
constexpr std::array<std::array<uint16_t, 256>, 8> make_crc16_tables() {
    std::array<std::array<uint16_t, 256>, 8> t{};
    for (unsigned i = 0; i < 256; ++i) {
        uint16_t c = uint16_t(i << 8);
        for (int b = 0; b < 8; ++b) c = uint16_t((c & 0x8000) ? (c << 1) ^ 0x1021 : c << 1);
        t[0][i] = c;
    }
    for (unsigned k = 1; k < 8; ++k)
        for (unsigned i = 0; i < 256; ++i)
            t[k][i] = uint16_t((t[k - 1][i] << 8) ^ t[0][t[k - 1][i] >> 8]);
    return t;
}
constexpr auto kCrc16 = make_crc16_tables();

// The same for the reflected CRC-32, consuming little-endian 32-bit halves.
constexpr std::array<std::array<uint32_t, 256>, 8> make_crc32_tables() {
    std::array<std::array<uint32_t, 256>, 8> t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int b = 0; b < 8; ++b) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        t[0][i] = c;
    }
    for (unsigned k = 1; k < 8; ++k)
        for (unsigned i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
    return t;
}
constexpr auto kCrc32 = make_crc32_tables();

uint32_t load_le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
}  // namespace

uint16_t crc16_ccitt(std::span<const uint8_t> bytes, uint16_t crc) {
    const uint8_t* p = bytes.data();
    size_t n = bytes.size();
    for (; n >= 8; n -= 8, p += 8) {
        crc = uint16_t(kCrc16[7][p[0] ^ (crc >> 8)] ^ kCrc16[6][p[1] ^ (crc & 0xFF)] ^ kCrc16[5][p[2]] ^
                       kCrc16[4][p[3]] ^ kCrc16[3][p[4]] ^ kCrc16[2][p[5]] ^ kCrc16[1][p[6]] ^ kCrc16[0][p[7]]);
    }
    for (; n > 0; --n, ++p) crc = uint16_t((crc << 8) ^ kCrc16[0][((crc >> 8) ^ *p) & 0xFF]);
    return crc;
}

uint32_t crc32(std::span<const uint8_t> bytes, uint32_t crc) {
    const uint8_t* p = bytes.data();
    size_t n = bytes.size();
    crc = ~crc;
    for (; n >= 8; n -= 8, p += 8) {
        const uint32_t lo = load_le32(p) ^ crc, hi = load_le32(p + 4);
        crc = kCrc32[7][lo & 0xFF] ^ kCrc32[6][(lo >> 8) & 0xFF] ^ kCrc32[5][(lo >> 16) & 0xFF] ^ kCrc32[4][lo >> 24] ^
              kCrc32[3][hi & 0xFF] ^ kCrc32[2][(hi >> 8) & 0xFF] ^ kCrc32[1][(hi >> 16) & 0xFF] ^ kCrc32[0][hi >> 24];
    }
    for (; n > 0; --n, ++p) crc = (crc >> 8) ^ kCrc32[0][(crc ^ *p) & 0xFF];
    return ~crc;
}

}  // namespace niclab::net
