// The memory map's page table answers as a scan of its ranges would: for the SeaStar's
// map and the LANai's, and for ranges that share a page, cross pages, end at the top of
// the address space or leave holes, every address at or next to a range's ends, and the
// first and last address of the 64 KB and 16 MB pages around them, finds the range that
// holds it, or none.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <vector>

#include "niclab/fw/core_hw.h"
#include "niclab/fw/hw.h"
#include "niclab/fw/lanai.h"
#include "niclab/nic/memory_map.hpp"

namespace niclab::test {
namespace {

// A register block that names itself: a read gives its id and the offset read.
class Named : public nic::RegisterBlock {
public:
    explicit Named(uint32_t id) : id_(id) {}
    bool read(uint32_t offset, uint32_t& value) override {
        value = id_ << 24 | offset;
        return true;
    }
    bool write(uint32_t, uint32_t) override { return true; }

private:
    uint32_t id_;
};

struct Span {
    uint32_t base, size;
};

// Maps the spans in order and reads the addresses that could go wrong: each span's ends
// and one either side, and both ends of the 64 KB and 16 MB pages that hold those.
void expect_as_scanned(const std::vector<Span>& spans) {
    nic::MemoryMap map{nic::MmioTiming{}};
    std::vector<Named> blocks;
    blocks.reserve(spans.size());
    for (uint32_t i = 0; i < spans.size(); ++i) {
        blocks.emplace_back(i + 1);
        map.map(spans[i].base, spans[i].size, blocks.back());
    }
    std::set<uint32_t> probes{0, 0xFFFFFFFFu};
    for (const Span& s : spans)
        for (uint64_t edge : {uint64_t(s.base), uint64_t(s.base) + s.size})
            for (int64_t d : {-1, 0, 1}) {
                const int64_t a = int64_t(edge) + d;
                if (a < 0 || a > 0xFFFFFFFF) continue;
                probes.insert(uint32_t(a));
                probes.insert(uint32_t(a) & ~0xFFFFu);
                probes.insert(uint32_t(a) | 0xFFFFu);
                probes.insert(uint32_t(a) & ~0xFFFFFFu);
                probes.insert(uint32_t(a) | 0xFFFFFFu);
            }
    for (uint32_t addr : probes) {
        int want = -1;
        for (size_t i = 0; i < spans.size(); ++i)
            if (addr - spans[i].base < spans[i].size) want = int(i);
        uint32_t value = 0;
        Time latency;
        const bool found = map.read(addr, 4, value, latency);
        char where[32];
        std::snprintf(where, sizeof where, "address 0x%08x", addr);
        SCOPED_TRACE(where);
        ASSERT_EQ(found, want >= 0);
        if (want >= 0) {
            EXPECT_EQ(value, uint32_t(want + 1) << 24 | (addr - spans[size_t(want)].base));
        }
    }
}

TEST(MemoryMap, TheSeaStarsMapAnswersAsAScan) {
    // As EmbeddedNic and SeaStarNic map it: the control block, the host windows, TX and RX
    // DMA, the host bridge's registers.
    expect_as_scanned({{NICLAB_CTRL_BASE, NICLAB_CTRL_SIZE},
                       {0, NICLAB_HOST_WINDOW_COUNT * NICLAB_HOST_WINDOW_SIZE},
                       {NICLAB_TXDMA_BASE, NICLAB_TXDMA_SIZE},
                       {NICLAB_RXDMA_BASE, NICLAB_RXDMA_SIZE},
                       {NICLAB_HB_BASE, NICLAB_HOST_WINDOW_COUNT * NICLAB_HB_WINDOW_STRIDE}});
}

TEST(MemoryMap, TheLanaisMapAnswersAsAScan) {
    expect_as_scanned({{NICLAB_CTRL_BASE, NICLAB_CTRL_SIZE},
                       {LANAI_HDMA_BASE, LANAI_HDMA_SIZE},
                       {LANAI_SEND_BASE, LANAI_SEND_SIZE},
                       {LANAI_RECV_BASE, LANAI_RECV_SIZE}});
}

TEST(MemoryMap, RangesSharingPagesCrossingPagesAndAtTheTop) {
    expect_as_scanned({{0x10, 0x20},                // two small ranges in one 64 KB page
                       {0x40, 0x8},
                       {0x00FFFF00u, 0x200},        // across a 16 MB and a 64 KB boundary
                       {0x0100FFF0u, 0x10},         // ends where the next one begins
                       {0x01010000u, 0x03000000u},  // several 16 MB pages
                       {0xFFFFFF00u, 0x100}});      // to the last address
}

TEST(MemoryMap, OverlapsAreRefusedAndLeaveTheMapAsItWas) {
    nic::MemoryMap map{nic::MmioTiming{}};
    Named a(1), b(2);
    map.map(0xF0020000u, 0x2000, a);
    EXPECT_THROW(map.map(0xF0021000u, 0x2000, b), std::invalid_argument);
    uint32_t value = 0;
    Time latency;
    ASSERT_TRUE(map.read(0xF0021FFCu, 4, value, latency));
    EXPECT_EQ(value, 1u << 24 | 0x1FFC);
    EXPECT_FALSE(map.read(0xF0022000u, 4, value, latency));
}

}  // namespace
}  // namespace niclab::test
