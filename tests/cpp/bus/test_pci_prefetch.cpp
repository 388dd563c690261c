// The bridge's DMA read prefetch stream and DMA writes (PciParams::dma_write_ends_read_prefetch):
// a read burst after a write burst waits for host memory again (PCI 2.1 ordering: the read
// pushes the posted write to memory first; the bridge drops what it had prefetched), and
// without the flag the prefetched stream survives the write. Pins the mechanism behind the
// StarT-X's exchange (seed 002 §6.1.2 L226), not any published number.
#include <gtest/gtest.h>

#include <vector>

#include "pci_test_support.hpp"

namespace niclab::bus::test {
namespace {

struct ReadRun {
    Time read_done;
    PciCounters counters;
};

PciParams with_flag(bool drops) {
    PciParams p;
    p.dma_write_ends_read_prefetch = drops;
    return p;
}

// A 64-byte read (two bursts) and, at `write_at`, a 32-byte write (one burst).
ReadRun read_with_a_write(bool drops, Time write_at) {
    PciFixture f(with_flag(drops));
    std::vector<uint8_t> src(64);
    for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i * 3 + 1);
    f.memory.write(0x3000, src);
    std::vector<uint8_t> in(64), out(32, 0xAB);
    ReadRun r;
    f.bus.dma_read(0x3000, in, [&] { r.read_done = f.kernel.now(); });
    f.kernel.schedule_at(write_at, [&] { f.bus.dma_write(0x8000, out, [] {}); });
    f.run();
    EXPECT_EQ(in, src);  // the data are right whatever the timing
    r.counters = f.bus.counters();
    return r;
}

TEST(PciPrefetch, AWriteDuringAFetchEndsTheStreamSoTheNextBurstFetchesAgain) {
    const PciParams p;
    const Time lat = p.dma_read_latency, rd = p.dma_burst_occupancy(32), wr = p.dma_burst_occupancy(32);
    ASSERT_GT(lat, wr);  // the write runs while the first read burst is being fetched
    const ReadRun on = read_with_a_write(true, Time{});
    EXPECT_EQ(on.read_done, lat + rd + lat + rd);  // burst 2 starts a new stream after burst 1
    EXPECT_EQ(on.counters.dma_read_fetches, 2u);
    EXPECT_EQ(on.counters.prefetch_discards, 1u);
    const ReadRun off = read_with_a_write(false, Time{});
    EXPECT_EQ(off.read_done, lat + rd + rd);  // burst 2 is prefetched
    EXPECT_EQ(off.counters.dma_read_fetches, 1u);
    EXPECT_EQ(off.counters.prefetch_discards, 0u);
}

TEST(PciPrefetch, AReadWaitingOnThePrefetchIsRetriedAfterAWriteThatWinsTheBus) {
    const PciParams p;
    const Time lat = p.dma_read_latency, rd = p.dma_burst_occupancy(32), wr = p.dma_burst_occupancy(32);
    // The write asks just before burst 1 ends, so it is granted before burst 2.
    const Time ask = lat + rd - Time::ps(1);
    const ReadRun on = read_with_a_write(true, ask);
    EXPECT_EQ(on.read_done, lat + rd + wr + lat + rd);  // burst 2 waits for the write, then memory
    EXPECT_EQ(on.counters.dma_read_fetches, 2u);
    const ReadRun off = read_with_a_write(false, ask);
    EXPECT_EQ(off.read_done, lat + rd + wr + rd);  // only the bus is shared
    EXPECT_EQ(off.counters.dma_read_fetches, 1u);
}

// Two bus-bound streams at once: the reads' memory waits do not idle the bus, the writes
// fill them, so the bus does the same work in about the same time and only the share
// changes. (In an exchange the writes come from the network and cannot fill every wait:
// that is where the time goes, see tests/cpp/startx/test_rdma_exchange.cpp.)
TEST(PciPrefetch, ReadsWaitingForMemoryLeaveTheBusToWrites) {
    struct Ends {
        Time read, write;
        PciCounters c;
    };
    auto both = [](bool drops) {
        PciFixture f(with_flag(drops));
        std::vector<uint8_t> src(4096, 7), in(4096), out(4096, 9);
        f.memory.write(0x20000, src);
        Ends e;
        f.bus.dma_read(0x20000, in, [&] { e.read = f.kernel.now(); });
        f.bus.dma_write(0x10000, out, [&] { e.write = f.kernel.now(); });
        f.run();
        EXPECT_EQ(in, src);
        e.c = f.bus.counters();
        return e;
    };
    const PciParams p;
    const Ends off = both(false), on = both(true);
    EXPECT_EQ(off.c.dma_read_fetches, 1u);
    EXPECT_GT(on.c.dma_read_fetches, 32u);  // read bursts that followed write bursts
    EXPECT_LT(on.write.ps(), off.write.ps() * 85 / 100);
    EXPECT_EQ(on.c.busy, off.c.busy);
    EXPECT_LE(std::max(on.read, on.write), std::max(off.read, off.write) + p.dma_read_latency * 2);
}

}  // namespace
}  // namespace niclab::bus::test
