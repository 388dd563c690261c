// ZeroPages: zero-filled memory that costs nothing resident until written, and is all
// zero again after clear().
#include <gtest/gtest.h>

#include <algorithm>
#include <unistd.h>
#include <sys/mman.h>
#include <vector>

#include "niclab/sim/host_resources.hpp"
#include "niclab/sim/zero_pages.hpp"

namespace niclab::sim {
namespace {

// Pages of `m` the system holds resident (mincore(2)).
size_t resident_pages(const ZeroPages& m) {
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> in((m.size() + page - 1) / page);
    EXPECT_EQ(mincore(const_cast<uint8_t*>(m.data()), m.size(), in.data()), 0);
    return size_t(std::count_if(in.begin(), in.end(), [](unsigned char c) { return c & 1; }));
}

TEST(ZeroPages, ReadsZeroAndHoldsOnlyWhatWasWritten) {
    ZeroPages m(384 * 1024, "test memory");
    EXPECT_TRUE(std::all_of(m.data(), m.data() + m.size(), [](uint8_t b) { return b == 0; }));
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    ZeroPages fresh(384 * 1024, "test memory");
    EXPECT_EQ(resident_pages(fresh), 0u);
    fresh.data()[5] = 1;
    fresh.data()[3 * page + 7] = 2;
    EXPECT_EQ(resident_pages(fresh), 2u);
}

TEST(ZeroPages, ClearGivesThePagesBackAsZeros) {
    ZeroPages m(64 * 1024, "test memory");
    std::fill(m.data(), m.data() + m.size(), uint8_t(0xA5));
    m.clear();
    EXPECT_EQ(resident_pages(m), 0u);
    EXPECT_TRUE(std::all_of(m.data(), m.data() + m.size(), [](uint8_t b) { return b == 0; }));
}

TEST(ZeroPages, MovesOwnership) {
    ZeroPages a(8192, "test memory");
    a.data()[1] = 9;
    ZeroPages b(std::move(a));
    EXPECT_EQ(a.data(), nullptr);
    EXPECT_EQ(a.size(), 0u);
    EXPECT_EQ(b.data()[1], 9);
    ZeroPages c(0, "test memory");
    c = std::move(b);
    EXPECT_EQ(c.size(), 8192u);
    EXPECT_EQ(c.data()[1], 9);
}

// Memory the machine cannot map is a HostResourceError that names it and says which
// resource ran out (64 PB: more than an x86-64 process can address).
TEST(ZeroPages, MemoryTheMachineCannotMapIsAHostResourceErrorNamingIt) {
    try {
        ZeroPages m(size_t(1) << 56, "a NIC's SRAM");
        FAIL() << "a 64 PB mapping was given";
    } catch (const HostResourceError& e) {
        EXPECT_STREQ(e.what(), "a NIC's SRAM (70368744177664 KB) could not be had (mapping it): the machine is out of memory");
    }
}

}  // namespace
}  // namespace niclab::sim
