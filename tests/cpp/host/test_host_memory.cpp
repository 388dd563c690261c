// HostMemory: sparse real bytes. Untouched memory reads as zero, so zeroing never
// makes a page (a driver clearing its region costs a node nothing), and a page zeroed
// whole is given back.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "niclab/host/host_memory.hpp"

namespace niclab::host {
namespace {

constexpr uint64_t kPage = HostMemory::kPageBytes;

TEST(HostMemory, ZeroFillMakesNoPages) {
    HostMemory m;
    m.fill(0x10000, 0, 64 * kPage + 100);
    EXPECT_EQ(m.pages_touched(), 0u);
    std::array<uint8_t, 16> out{};
    out.fill(0xFF);
    m.read(0x10000 + 5 * kPage, out);
    for (uint8_t b : out) EXPECT_EQ(b, 0);
}

TEST(HostMemory, ZeroFillClearsTouchedBytesAndGivesWholePagesBack) {
    HostMemory m;
    m.fill(0, 0xAB, 3 * kPage);  // pages 0, 1, 2
    ASSERT_EQ(m.pages_touched(), 3u);
    m.fill(100, 0, 2 * kPage);   // the tail of page 0, all of page 1, the head of page 2
    EXPECT_EQ(m.pages_touched(), 2u);
    std::vector<uint8_t> out(3 * kPage);
    m.read(0, out);
    for (uint64_t i = 0; i < out.size(); ++i)
        ASSERT_EQ(out[i], (i < 100 || i >= 100 + 2 * kPage) ? 0xAB : 0) << "byte " << i;
}

TEST(HostMemory, NonZeroFillWritesEveryByte) {
    HostMemory m;
    m.fill(kPage - 2, 7, 4);
    EXPECT_EQ(m.pages_touched(), 2u);
    std::array<uint8_t, 6> out{};
    m.read(kPage - 3, out);
    EXPECT_EQ(out, (std::array<uint8_t, 6>{0, 7, 7, 7, 7, 0}));
}

// A check where the bytes lie: the first byte that differs, across pages and in untouched
// ones (zero), or the length when none does.
TEST(HostMemory, MismatchFindsTheFirstDifferentByte) {
    HostMemory m;
    std::vector<uint8_t> bytes(3 * kPage);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 7 + 1);
    m.write(kPage - 10, bytes);
    EXPECT_EQ(m.mismatch(kPage - 10, bytes), bytes.size());
    std::vector<uint8_t> want = bytes;
    want[kPage + 20] ^= 1;  // on the second page touched
    EXPECT_EQ(m.mismatch(kPage - 10, want), kPage + 20);
    want = bytes;
    want.resize(4 * kPage, 0);  // on into a page never touched: zeros match
    EXPECT_EQ(m.mismatch(kPage - 10, want), want.size());
    want.back() = 9;
    EXPECT_EQ(m.mismatch(kPage - 10, want), want.size() - 1);
    EXPECT_EQ(m.pages_touched(), 4u);  // looking made no page
}

}  // namespace
}  // namespace niclab::host
