// The link CRC and the end-to-end CRC against their published check values, and
// the link CRC catching every single-bit payload error.
#include <gtest/gtest.h>

#include <string_view>

#include "niclab/net/crc.hpp"
#include "niclab/net/packet.hpp"

namespace niclab::net {
namespace {

std::span<const uint8_t> bytes(std::string_view s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

TEST(Crc, CheckValues) {
    EXPECT_EQ(crc16_ccitt(bytes("123456789")), 0x29B1);
    EXPECT_EQ(crc32(bytes("123456789")), 0xCBF43926u);
    EXPECT_EQ(crc32(bytes("56789"), crc32(bytes("1234"))), 0xCBF43926u) << "running CRC";
}

TEST(Crc, LinkCrcSeesEverySingleBitError) {
    Packet p;
    p.src = 3; p.dst = 9; p.message_id = 77; p.sequence = 5; p.tail = true; p.length = 64;
    for (unsigned i = 0; i < 64; ++i) p.payload[i] = uint8_t(i * 37);
    const uint16_t good = compute_link_crc(p);
    for (unsigned bit = 0; bit < 64 * 8; ++bit) {
        Packet q = p;
        q.payload[bit / 8] ^= uint8_t(1u << (bit % 8));
        ASSERT_NE(compute_link_crc(q), good) << "bit " << bit;
    }
    Packet h = p;
    h.dst = 10;
    EXPECT_NE(compute_link_crc(h), good) << "the header is covered too";
}

}  // namespace
}  // namespace niclab::net
