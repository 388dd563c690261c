#include "niclab/net/crc.hpp"

#include <array>

#include <isa-l/crc.h>

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
    // ISA-L's reflected IEEE CRC-32 (PCLMULQDQ folding where the CPU has it) takes and
    // returns the finished value, as zlib's does, so a running CRC continues as is.
    return crc32_gzip_refl(crc, bytes.data(), bytes.size());
}

}  // namespace niclab::net
