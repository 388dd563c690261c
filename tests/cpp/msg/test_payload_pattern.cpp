// The benchmark payload (payload_pattern.hpp): every byte is the generator's word for
// its position, whichever way the host makes them (eight words at a time with AVX-512,
// four with AVX2, one at a time otherwise), and a check finds a changed or a missing
// byte at its offset.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "niclab/host/host_memory.hpp"
#include "niclab/msg/payload_pattern.hpp"
#include "niclab/msg/transport.hpp"

namespace niclab::msg {
namespace {

// The definition, a byte at a time: byte p is byte p % 8 of word p / 8, which is
// (key ^ (p / 8)) times an odd constant, its high half then folded into its low.
uint8_t reference_byte(uint64_t key, uint64_t p) {
    uint64_t x = (key ^ (p >> 3)) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 32;
    return uint8_t(x >> (8 * (p & 7)));
}

TEST(PayloadPattern, EveryByteIsTheDefinitionsAtEveryLengthAndStart) {
    for (uint64_t key : {uint64_t{0}, uint64_t{1}, uint64_t{0xDEADBEEF12345678}, pattern_key(7, 3, 8 << 20)})
        for (uint64_t first : {uint64_t{0}, uint64_t{8}, uint64_t{64}, uint64_t{4096}, uint64_t{65536 * 3 + 8}, (uint64_t{1} << 40) + 16})
            for (size_t n = 0; n <= 300; ++n) {
                std::vector<uint8_t> out(n, 0xA5);
                pattern_chunk(key, first, out);
                for (size_t i = 0; i < n; ++i)
                    ASSERT_EQ(out[i], reference_byte(key, first + i))
                        << "key " << key << ", first " << first << ", " << n << " bytes, byte " << i;
            }
}

TEST(PayloadPattern, AFilledBufferChecksAndAChangedByteIsFoundAtItsOffset) {
    host::HostMemory memory;
    const uint64_t addr = 0x10000, bytes = 200'000, key = pattern_key(1, 0, bytes);
    fill_pattern(memory, addr, bytes, key);
    EXPECT_NO_THROW(check_pattern(memory, addr, bytes, key, 1, 0, "message"));
    std::vector<uint8_t> b(1);
    memory.read(addr + 131'077, b);
    b[0] ^= 0x10;
    memory.write(addr + 131'077, b);
    try {
        check_pattern(memory, addr, bytes, key, 1, 0, "message");
        FAIL() << "a changed byte passed the check";
    } catch (const TransportError& e) {
        EXPECT_NE(std::string(e.what()).find("at offset 131077"), std::string::npos) << e.what();
    }
}

TEST(PayloadPattern, BytesThatNeverCameAreFoundAtTheirOffset) {
    host::HostMemory memory;
    const uint64_t addr = 0x10000 - 100, bytes = 5000, key = pattern_key(1, 0, bytes);
    fill_pattern(memory, addr, 100, key);  // up to a page's end; the rest never lands, in pages never touched
    try {
        check_pattern(memory, addr, bytes, key, 1, 0, "message");
        FAIL() << "missing bytes passed the check";
    } catch (const TransportError& e) {
        EXPECT_NE(std::string(e.what()).find("at offset 100"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("found 0x00"), std::string::npos) << e.what();
    }
}

// Made and checked in place, a page's piece at a time: a buffer starting at any byte of a
// word, across page ends, holds the definition's bytes, and a changed byte anywhere - in a
// word's head, in a vector, in the tail after the last vector, either side of a page's end
// - is found at its offset, also when checked from an offset into the message (`first`).
TEST(PayloadPattern, ABufferAtAnyByteAcrossPagesIsMadeAndCheckedInPlace) {
    const uint64_t page = host::HostMemory::kPageBytes, bytes = 2 * page + 77, key = pattern_key(5, 2, bytes);
    for (uint64_t skew = 0; skew < 16; ++skew) {
        host::HostMemory memory;
        const uint64_t addr = 3 * page - 40 + skew;
        fill_pattern(memory, addr, bytes, key);
        std::vector<uint8_t> got(bytes);
        memory.read(addr, got);
        for (uint64_t i = 0; i < bytes; ++i) ASSERT_EQ(got[i], reference_byte(key, i)) << "skew " << skew << ", byte " << i;
        EXPECT_NO_THROW(check_pattern(memory, addr, bytes, key, 1, 0, "message"));
        EXPECT_NO_THROW(check_pattern(memory, addr + 24, bytes - 24, key, 1, 0, "message", 24));
        for (uint64_t at : {uint64_t{0}, uint64_t{3}, uint64_t{39}, uint64_t{40} - skew, uint64_t{41} - skew, uint64_t{200},
                            page + 40 - skew, 2 * page + 40 - skew - 1, bytes - 70, bytes - 1}) {
            std::vector<uint8_t> b(1);
            memory.read(addr + at, b);
            b[0] ^= 0x01;
            memory.write(addr + at, b);
            try {
                check_pattern(memory, addr, bytes, key, 1, 0, "message");
                FAIL() << "a changed byte at " << at << " passed the check (skew " << skew << ")";
            } catch (const TransportError& e) {
                EXPECT_NE(std::string(e.what()).find("at offset " + std::to_string(at) + ":"), std::string::npos)
                    << "skew " << skew << ": " << e.what();
            }
            b[0] ^= 0x01;
            memory.write(addr + at, b);
        }
    }
}

// What the check relies on: no two positions of a message hold the same word, so a word
// put in the wrong place shows, and no position holds the same word under the keys of a
// message of another size or from another sender, so bytes another message left there show.
TEST(PayloadPattern, EachPositionsWordIsItsOwnAndItsKeysOwn) {
    constexpr size_t kWords = 1 << 16;
    auto words = [](uint64_t key) {
        std::vector<uint64_t> w(kWords);
        pattern_chunk(key, 0, {reinterpret_cast<uint8_t*>(w.data()), kWords * 8});
        return w;
    };
    const uint64_t bytes = kWords * 8;
    const std::vector<uint64_t> mine = words(pattern_key(3, 1, bytes));
    std::vector<uint64_t> sorted = mine;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "two positions share a word";
    for (const uint64_t other : {pattern_key(3, 1, bytes - 8), pattern_key(3, 2, bytes), pattern_key(4, 1, bytes)}) {
        const std::vector<uint64_t> theirs = words(other);
        for (size_t i = 0; i < kWords; ++i) ASSERT_NE(mine[i], theirs[i]) << "word " << i << " the same under key " << other;
    }
}

}  // namespace
}  // namespace niclab::msg
