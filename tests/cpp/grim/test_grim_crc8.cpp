// The Myrinet CRC-8 (crc8.hpp) sliced by eight gives what one byte at a time gives, at
// every length, alignment and starting value, and the catalogue's check value.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <span>
#include <vector>

#include "niclab/systems/grim/crc8.hpp"

namespace niclab::grim {
namespace {

// The definition: the polynomial's remainder, a bit at a time.
uint8_t crc8_bitwise(std::span<const uint8_t> bytes, uint8_t crc) {
    for (uint8_t b : bytes) {
        crc ^= b;
        for (int i = 0; i < 8; ++i) crc = uint8_t((crc & 0x80) ? (crc << 1) ^ 0x07 : crc << 1);
    }
    return crc;
}

TEST(GrimCrc8, CheckValueOfTheCatalogue) {
    // CRC-8 (poly 0x07, init 0, no reflection, no final XOR): "123456789" gives 0xF4.
    const std::string s = "123456789";
    EXPECT_EQ(myrinet_crc8(std::span(reinterpret_cast<const uint8_t*>(s.data()), s.size())), 0xF4);
}

TEST(GrimCrc8, SlicedEqualsBitwiseAtEveryLengthOffsetAndStart) {
    std::mt19937 rng(7);
    std::vector<uint8_t> data(300);
    for (auto& b : data) b = uint8_t(rng());
    for (size_t offset = 0; offset < 8; ++offset)
        for (size_t n = 0; offset + n <= data.size(); ++n)
            for (unsigned start : {0u, 1u, 0x5Au, 0xFFu}) {
                const std::span<const uint8_t> s(data.data() + offset, n);
                ASSERT_EQ(myrinet_crc8(s, uint8_t(start)), crc8_bitwise(s, uint8_t(start)))
                    << "offset " << offset << ", " << n << " bytes, start " << start;
            }
}

TEST(GrimCrc8, ChainedPiecesEqualTheWhole) {
    std::vector<uint8_t> data(4096);
    for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 131 + 7);
    const std::span<const uint8_t> all(data);
    EXPECT_EQ(myrinet_crc8(all.subspan(1000), myrinet_crc8(all.first(1000))), myrinet_crc8(all));
}

}  // namespace
}  // namespace niclab::grim
