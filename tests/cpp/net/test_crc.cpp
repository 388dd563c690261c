// The link CRC and the end-to-end CRC against their published check values, and
// the link CRC catching every single-bit payload error.
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

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

TEST(Crc, SlicedMatchesBytewiseAtEveryLengthAndSplit) {
    // Reference: the bit-at-a-time definitions of both CRCs.
    auto ref16 = [](std::span<const uint8_t> b, uint16_t c) {
        for (uint8_t x : b) {
            c ^= uint16_t(x << 8);
            for (int i = 0; i < 8; ++i) c = uint16_t((c & 0x8000) ? (c << 1) ^ 0x1021 : c << 1);
        }
        return c;
    };
    auto ref32 = [](std::span<const uint8_t> b, uint32_t c) {
        c = ~c;
        for (uint8_t x : b) {
            c ^= x;
            for (int i = 0; i < 8; ++i) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        }
        return ~c;
    };
    std::vector<uint8_t> data(100);
    for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 37 + 11);
    for (size_t len = 0; len <= data.size(); ++len) {
        std::span<const uint8_t> s(data.data(), len);
        EXPECT_EQ(crc16_ccitt(s), ref16(s, 0xFFFF)) << len;
        EXPECT_EQ(crc32(s), ref32(s, 0)) << len;
        EXPECT_EQ(crc32(s.subspan(len / 3), crc32(s.first(len / 3))), ref32(s, 0)) << len;
    }
}

// Batched, the CRC is the same whatever the pieces: shorter than the batch, exactly
// it, longer, and the value read between pieces.
TEST(Crc, BatchEqualsTheRunningCrcForAnyPieces) {
    std::vector<uint8_t> data(3000);
    for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 131 + 7);
    const uint32_t whole = crc32(data);
    for (size_t piece : {1, 7, 16, 17, 64, 100, 2999}) {
        Crc32Batch<16> batch;
        for (size_t at = 0; at < data.size(); at += piece)
            batch.add(std::span<const uint8_t>(data).subspan(at, std::min(piece, data.size() - at)));
        EXPECT_EQ(batch.value(), whole) << "pieces of " << piece;
        batch.clear();
        batch.add(std::span<const uint8_t>(data).first(1000));
        EXPECT_EQ(batch.value(), crc32(std::span<const uint8_t>(data).first(1000)));
        batch.add(std::span<const uint8_t>(data).subspan(1000));
        EXPECT_EQ(batch.value(), whole) << "read halfway, then continued";
    }
}

}  // namespace
}  // namespace niclab::net
