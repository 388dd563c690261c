// HostMemory: sparse real bytes. Untouched memory reads as zero, so zeroing never
// makes a page (a driver clearing its region costs a node nothing), and a page zeroed
// whole is given back.
#include <gtest/gtest.h>

#include <array>
#include <utility>
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

// Bytes where they lie, a page's piece at a time (read_pages): each piece's bytes in order
// across pages, null for a page never touched (it reads as zero), stopping where the
// visitor says; looking makes no page. write_pages sets them in place, touching pages.
TEST(HostMemory, PagesAreReadAndWrittenWhereTheBytesLie) {
    HostMemory m;
    m.write_pages(kPage - 10, 2 * kPage, [](uint8_t* at, uint64_t done, uint64_t n) {
        for (uint64_t i = 0; i < n; ++i) at[i] = uint8_t((done + i) * 7 + 1);
    });
    EXPECT_EQ(m.pages_touched(), 3u);
    std::vector<uint8_t> back(2 * kPage);
    m.read(kPage - 10, back);
    for (size_t i = 0; i < back.size(); ++i) ASSERT_EQ(back[i], uint8_t(i * 7 + 1)) << "byte " << i;
    std::vector<std::pair<uint64_t, uint64_t>> pieces;  // (offset in the range, length)
    std::vector<bool> touched;
    m.read_pages(kPage - 10, 4 * kPage, [&](const uint8_t* have, uint64_t done, uint64_t n) {
        pieces.emplace_back(done, n);
        touched.push_back(have != nullptr);
        if (have) {
            EXPECT_EQ(have[0], uint8_t(done * 7 + 1)) << "piece at " << done;
        }
        return true;
    });
    EXPECT_EQ(pieces, (std::vector<std::pair<uint64_t, uint64_t>>{{0, 10}, {10, kPage}, {10 + kPage, kPage}, {10 + 2 * kPage, kPage}, {10 + 3 * kPage, kPage - 10}}));
    EXPECT_EQ(touched, (std::vector<bool>{true, true, true, false, false}));
    int visits = 0;
    m.read_pages(kPage - 10, 4 * kPage, [&](const uint8_t*, uint64_t, uint64_t) { return ++visits < 2; });
    EXPECT_EQ(visits, 2);  // stopped where it said
    EXPECT_EQ(m.pages_touched(), 3u);  // looking made no page
}

// Pages are kept in runs of 16 and the runs found last are remembered (4 of them): bytes
// over many runs, touched in an order that makes remembered runs give way to others that
// share their place, read back as written, and a page zeroed whole in a run's middle is
// given back and reads as zero while its neighbours keep their bytes.
TEST(HostMemory, PagesAcrossManyRunsKeepTheirBytes) {
    HostMemory m;
    constexpr uint64_t kRun = 16 * kPage;
    auto byte = [](uint64_t addr) { return uint8_t(addr * 13 + (addr >> 12)); };
    // From the middle of run 3 over 40 pages (into run 5), and a page of runs 7, 11 and 15
    // (each shares run 3's remembered place) between every page of the stream.
    std::vector<uint8_t> page(kPage);
    std::vector<uint64_t> written;
    for (uint64_t p = 0; p < 40; ++p) {
        for (uint64_t far : {7 * kRun, 11 * kRun + 5 * kPage, 15 * kRun + 15 * kPage})
            for (uint64_t at : {3 * kRun + 7 * kPage + p * kPage, far + (p % 2) * kPage}) {
                for (uint64_t i = 0; i < kPage; ++i) page[i] = byte(at + i);
                m.write(at, page);
                written.push_back(at);
            }
    }
    EXPECT_EQ(m.pages_touched(), 40u + 3 * 2);
    for (uint64_t at : written) {
        m.read(at, page);
        for (uint64_t i = 0; i < kPage; ++i) ASSERT_EQ(page[i], byte(at + i)) << "byte " << at + i;
    }
    const uint64_t middle = 4 * kRun + 8 * kPage;  // run 4, page 8: written by the stream
    m.fill(middle, 0, kPage);
    EXPECT_EQ(m.pages_touched(), 40u + 3 * 2 - 1);
    std::vector<uint8_t> three(3 * kPage);
    m.read(middle - kPage, three);
    for (uint64_t i = 0; i < three.size(); ++i) {
        const uint64_t addr = middle - kPage + i;
        ASSERT_EQ(three[i], addr >= middle && addr < middle + kPage ? 0 : byte(addr)) << "byte " << addr;
    }
}

}  // namespace
}  // namespace niclab::host
