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

// A packet's write every 25.6 ns (2.5 GB/s from the network) and, with `reads`, a 4 KB
// read stream every microsecond: after a warm-up, nothing is allocated.
void expect_no_allocations(bool reads) {
    sim::Kernel kernel;
    host::HostMemory memory;
    HyperTransport ht(kernel, memory);
    std::array<uint8_t, 64> packet{};
    std::array<uint8_t, 64> in{};
    // For `us` microseconds from `from`.
    auto drive = [&](int64_t from, int64_t us) {
        for (int64_t t = from * 1000; t < (from + us) * 1000; t += 25) {
            kernel.run_until(Time::ns(t));
            packet[0] = uint8_t(t);
            ht.dma_write(kernel.now(), 0x10000 + uint64_t(t) * 64 % 65536, packet);
            if (reads && t % 1000 == 0) {
                ht.dma_read_stream(kernel.now(), 4096);
                ht.dma_read_data(0x10000, in);
            }
        }
    };
    drive(0, 20);  // warm-up: the pools and the touched host pages reach their working set
    g_allocations = 0;
    g_counting = true;
    drive(20, 40);
    kernel.run_until(Time::us(61));
    g_counting = false;
    EXPECT_GT(ht.counters().dma_writes, 2000u);
    EXPECT_EQ(ht.writes_in_flight(), 0u);
    EXPECT_EQ(g_allocations, 0u);
}

TEST(HyperTransportNoAlloc, DmaWritesAndReadsAllocateNothingPerTransfer) { expect_no_allocations(true); }

// Nobody looks at host memory for the whole transfer (a message being received): the
// writes due still land as new ones come, so the ring of posted writes does not grow
// with the message.
TEST(HyperTransportNoAlloc, DmaWritesNobodyReadsAllocateNothingEither) { expect_no_allocations(false); }

}  // namespace
}  // namespace niclab::bus
