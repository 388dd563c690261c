// The DMA paths over HyperTransport allocate nothing once the link's ring of posted
// writes and the kernel's event pool have grown to the working set (the RX engine
// writes every arriving packet through it). This binary counts operator new calls.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <new>

#include "niclab/bus/hypertransport.hpp"

#include "counting_new.hpp"

namespace niclab::bus {
namespace {

TEST(HyperTransportNoAlloc, DmaWritesAndReadsAllocateNothingPerTransfer) {
    sim::Kernel kernel;
    host::HostMemory memory;
    HyperTransport ht(kernel, memory);
    std::array<uint8_t, 64> packet{};
    std::array<uint8_t, 64> in{};
    // A packet's write every 25.6 ns (2.5 GB/s from the network) and a 4 KB read stream
    // every microsecond, for `us` microseconds from `from`.
    auto drive = [&](int64_t from, int64_t us) {
        for (int64_t t = from * 1000; t < (from + us) * 1000; t += 25) {
            kernel.run_until(Time::ns(t));
            packet[0] = uint8_t(t);
            ht.dma_write(kernel.now(), 0x10000 + uint64_t(t) * 64 % 65536, packet);
            if (t % 1000 == 0) {
                ht.dma_read_stream(kernel.now(), 4096);
                ht.dma_read_data(0x10000, in);
            }
        }
    };
    drive(0, 20);  // warm-up: the pools and the touched host pages reach their working set
    g_counting = true;
    drive(20, 40);
    kernel.run_until(Time::us(61));
    g_counting = false;
    EXPECT_GT(ht.counters().dma_writes, 2000u);
    EXPECT_EQ(ht.writes_in_flight(), 0u);
    EXPECT_EQ(g_allocations, 0u);
}

}  // namespace
}  // namespace niclab::bus
