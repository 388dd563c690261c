#include "niclab/net/crc.hpp"

#include <array>

namespace niclab::net {

namespace {
constexpr std::array<uint16_t, 256> make_crc16_table() {
    std::array<uint16_t, 256> t{};
    for (unsigned i = 0; i < 256; ++i) {
        uint16_t c = uint16_t(i << 8);
        for (int b = 0; b < 8; ++b) c = uint16_t((c & 0x8000) ? (c << 1) ^ 0x1021 : c << 1);
        t[i] = c;
    }
    return t;
}
constexpr std::array<uint32_t, 256> make_crc32_table() {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int b = 0; b < 8; ++b) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        t[i] = c;
    }
    return t;
}
constexpr auto kCrc16 = make_crc16_table();
constexpr auto kCrc32 = make_crc32_table();
}  // namespace

uint16_t crc16_ccitt(std::span<const uint8_t> bytes, uint16_t crc) {
    for (uint8_t b : bytes) crc = uint16_t((crc << 8) ^ kCrc16[((crc >> 8) ^ b) & 0xFF]);
    return crc;
}

uint32_t crc32(std::span<const uint8_t> bytes, uint32_t crc) {
    crc = ~crc;
    for (uint8_t b : bytes) crc = (crc >> 8) ^ kCrc32[(crc ^ b) & 0xFF];
    return ~crc;
}

}  // namespace niclab::net
