// The HyperTransport link: the two directions independent, traffic on one channel in
// order (and, with shared_link, every channel of a direction), data visible only when
// its transaction completes, read latency and bandwidth as configured.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <vector>

#include "test_processes.hpp"
#include "niclab/bus/hypertransport.hpp"
#include "niclab/host/host_cpu.hpp"
#include "niclab/host/process.hpp"

namespace niclab::bus {
namespace {

using Dir = HyperTransport::Direction;
using Ch = HyperTransport::Channel;

struct HtFixture {
    explicit HtFixture(HyperTransportParams p = {}) : cpu(kernel), ht(kernel, memory, p) {}
    void run(Time until = Time::ms(1)) {
        kernel.run_until(until, true);
        procs.rethrow_failures();
    }
    sim::Kernel kernel;
    host::HostCpu cpu;
    host::HostMemory memory;
    HyperTransport ht;
    niclab::test::TestProcesses procs;
};

std::vector<uint8_t> bytes(size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = uint8_t(seed + i);
    return v;
}

TEST(HyperTransport, TheTwoDirectionsAreIndependent) {
    HtFixture f;
    const HyperTransportParams& p = f.ht.params();
    // A long TX DMA read (its data comes down, to the NIC) and a long RX DMA write (up,
    // to the host) at the same time: neither waits for the other.
    Time down = f.ht.dma_read_stream(Time{}, 65536);
    Time up = f.ht.dma_write(Time{}, 0x1000, bytes(4096, 1));
    EXPECT_EQ(down, p.dma_read_latency);
    EXPECT_EQ(up, p.transfer_time(4096));
    // Host PIO writes go down on their own channel: not behind the read's data either.
    EXPECT_EQ(f.ht.pio_write(Time::ns(10)), Time::ns(10));
    // Even with one FIFO per direction, down-going traffic never waits for the up link;
    // only a DMA read's request, which goes up, queues there behind the written data.
    HyperTransportParams shared;
    shared.shared_link = true;
    HtFixture g(shared);
    Time written = g.ht.dma_write(Time{}, 0x1000, bytes(4096, 1));
    EXPECT_EQ(g.ht.pio_write(Time::ns(10)), Time::ns(10));
    EXPECT_EQ(g.ht.dma_read_stream(Time{}, 64), written + p.dma_read_latency);
    EXPECT_EQ(f.ht.counters().queue_wait, Time{});
}

TEST(HyperTransport, OneChannelServesInOrder) {
    HtFixture f;
    const HyperTransportParams& p = f.ht.params();
    // Two DMA writes up: the second starts when the first ends.
    Time a = f.ht.dma_write(Time{}, 0x1000, bytes(640, 1));
    Time b = f.ht.dma_write(Time{}, 0x2000, bytes(64, 2));
    EXPECT_EQ(a, p.transfer_time(640));
    EXPECT_EQ(b, a + p.transfer_time(64));
    // The core's store to host memory shares that posted channel: the DMA write after it
    // waits for its link time.
    HtFixture g;
    uint32_t word = 7;
    EXPECT_EQ(g.ht.bridge_write(Time{}, 0x3000, {reinterpret_cast<uint8_t*>(&word), 4}), p.bridge_write_occupancy);
    EXPECT_EQ(g.ht.dma_write(Time{}, 0x1000, bytes(64, 1)), p.bridge_write_occupancy + p.transfer_time(64));
    // The core's load from host memory comes back on the response channel behind a DMA
    // read's data: it stalls until that has streamed in.
    HtFixture h;
    Time start = h.ht.dma_read_stream(Time{}, 8192);
    uint32_t value = 0;
    Time stall = h.ht.bridge_read(Time{}, 0x1000, {reinterpret_cast<uint8_t*>(&value), 4});
    EXPECT_EQ(stall, start + p.read_stream_time(8192));
    EXPECT_GT(h.ht.counters().queue_wait, Time{});
}

TEST(HyperTransport, PioAndDmaOnOneSharedLinkSerialize) {
    HyperTransportParams shared;
    shared.shared_link = true;
    shared.dma_outstanding_reads = 32;  // the read streams at the link rate, done before the write
    HtFixture f(shared);
    const HyperTransportParams& p = f.ht.params();
    // A host PIO write issued while a DMA read's data comes down waits for it ...
    Time start = f.ht.dma_read_stream(Time{}, 4096);
    const Time end = start + p.read_stream_time(4096);
    EXPECT_EQ(f.ht.pio_write(Time::ns(200)), end);
    // ... and a host PIO read's response going up waits behind an RX DMA write.
    Time written = f.ht.dma_write(Time{}, 0x1000, bytes(8192, 3));
    EXPECT_EQ(f.ht.pio_read(Time{}), written);  // the stall: its request went down behind the data
    // With virtual channels (the default) the same PIO does not wait.
    HtFixture g;
    g.ht.dma_read_stream(Time{}, 4096);
    EXPECT_EQ(g.ht.pio_write(Time::ns(200)), Time::ns(200));
    g.ht.dma_write(Time{}, 0x1000, bytes(8192, 3));
    EXPECT_EQ(g.ht.pio_read(Time{}), p.pio_read);
}

TEST(HyperTransport, DmaWriteDataIsVisibleOnlyAtCompletion) {
    HtFixture f;
    const auto data = bytes(256, 9);
    Time done{};
    // A host process polls the buffer's last byte every nanosecond (VI mode, GRIM).
    Time seen{};
    f.procs.spawn(f.cpu, "poller", [&](host::ProcessContext& ctx) {
        uint8_t b = 0;
        while (b != data.back()) {
            ctx.sleep_for(Time::ns(1));
            f.memory.read(0x4000 + 255, {&b, 1});
        }
        seen = ctx.now();
    });
    f.kernel.schedule_at(Time::ns(100), [&] {
        f.ht.dma_write(Time::ns(100), 0x4000, bytes(64, 0));  // an earlier write ahead of it
        done = f.ht.dma_write(Time::ns(100), 0x4000, data);
        uint8_t now_byte = 1;
        f.memory.read(0x4000 + 255, {&now_byte, 1});
        EXPECT_EQ(now_byte, 0) << "not in host memory at the call";
        EXPECT_EQ(f.ht.writes_in_flight(), 2u);
    });
    f.run();
    const HyperTransportParams& p = f.ht.params();
    EXPECT_EQ(done, Time::ns(100) + p.transfer_time(64) + p.transfer_time(256));
    EXPECT_GE(seen, done);
    EXPECT_LT(seen, done + Time::ns(2));
    std::vector<uint8_t> out(256);
    f.memory.read(0x4000, out);
    EXPECT_EQ(out, data);
    EXPECT_EQ(f.ht.writes_in_flight(), 0u);
}

// A posted write needs no event of its own: it lands when host memory is next looked
// at, in the place its event would have had among those of its picosecond - after the
// events scheduled before the write was issued, before those scheduled after - and a
// run to quiescence still ends when it lands.
TEST(HyperTransport, DmaWriteLandsInItsPlaceAmongTheEventsOfItsTimeWithoutAnEvent) {
    HtFixture f;
    const HyperTransportParams& p = f.ht.params();
    const Time done = Time::ns(100) + p.transfer_time(64);
    uint8_t before = 0xEE, after = 0xEE;
    f.kernel.schedule_at(done, [&] { f.memory.read(0x8000, {&before, 1}); });
    f.kernel.schedule_at(Time::ns(100), [&] {
        EXPECT_EQ(f.ht.dma_write(Time::ns(100), 0x8000, bytes(64, 7)), done);
        f.kernel.schedule_at(done, [&] { f.memory.read(0x8000, {&after, 1}); });
    });
    const Time end = f.kernel.run_until(Time::ms(1), true);
    EXPECT_EQ(before, 0) << "an event scheduled before the write was issued comes first";
    EXPECT_EQ(after, 7) << "one scheduled after it sees the bytes";
    EXPECT_EQ(f.kernel.events_fired(), 3u) << "no event of the write's own";
    EXPECT_EQ(end, done);

    // Nothing but the write: the run still goes on to its landing.
    HtFixture g;
    g.kernel.schedule_at(Time::ns(10), [&] { g.ht.dma_write(Time::ns(10), 0x8000, bytes(4096, 1)); });
    EXPECT_EQ(g.kernel.run_until(Time::ms(1), true), Time::ns(10) + p.transfer_time(4096));
    EXPECT_EQ(g.ht.writes_in_flight(), 0u);
    // A run that ends before the landing leaves it in flight and reaches its end.
    HtFixture h;
    h.kernel.schedule_at(Time::ns(10), [&] { h.ht.dma_write(Time::ns(10), 0x8000, bytes(4096, 1)); });
    EXPECT_EQ(h.kernel.run_until(Time::ns(20), true), Time::ns(20));
    EXPECT_EQ(h.ht.writes_in_flight(), 1u);
    std::vector<uint8_t> out(1);
    h.memory.read(0x8000, out);
    EXPECT_EQ(out[0], 0);
}

TEST(HyperTransport, PioWriteReachesTheNicAtCompletionInOrder) {
    HtFixture f;
    std::vector<std::pair<int, Time>> arrived;
    f.kernel.schedule_at(Time::ns(50), [&] {
        // Issued now: delivered inline. Issued later (a handler's charged time): then.
        f.ht.pio_write(Time::ns(50), [&] { arrived.push_back({1, f.kernel.now()}); });
        EXPECT_EQ(arrived.size(), 1u);
        f.ht.pio_write(Time::ns(300), [&] { arrived.push_back({2, f.kernel.now()}); });
        // Issued for an earlier time, it still lands behind the write before it.
        f.ht.pio_write(Time::ns(200), [&] { arrived.push_back({3, f.kernel.now()}); });
    });
    f.run();
    ASSERT_EQ(arrived.size(), 3u);
    EXPECT_EQ(arrived[1], std::make_pair(2, Time::ns(300)));
    EXPECT_EQ(arrived[2], std::make_pair(3, Time::ns(300)));
    EXPECT_EQ(f.ht.counters().pio_writes, 3u);
}

TEST(HyperTransport, ReadLatencyAndBandwidthAsConfigured) {
    HyperTransportParams p;
    p.dma_read_latency = Time::us(1);
    p.payload_mb_s = 1000;  // 1 ns per byte
    p.bridge_read_latency = Time::ns(300);
    p.pio_read = Time::ns(900);
    p.dma_outstanding_reads = 32;  // enough tags to cover the latency: only the link limits
    HtFixture f(p);
    f.memory.write(0x8000, bytes(16, 4));
    Time first = f.ht.dma_read_stream(Time::ns(5), 1500);
    EXPECT_EQ(first, Time::ns(1005));
    // A second transfer's data follows the first's on the response channel.
    EXPECT_EQ(f.ht.dma_read_stream(Time::ns(5), 100), Time::ns(1005 + 1500));
    std::array<uint8_t, 16> out{};
    f.ht.dma_read_data(0x8000, out);
    EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), bytes(16, 4));
    EXPECT_EQ(f.ht.dma_write(Time{}, 0x9000, bytes(250, 0)), Time::ns(250));
    uint32_t v = 0;
    HtFixture g(p);
    g.memory.write(0x8000, bytes(16, 4));
    EXPECT_EQ(g.ht.bridge_read(Time::ns(7), 0x8000, {reinterpret_cast<uint8_t*>(&v), 4}), Time::ns(300));
    EXPECT_EQ(v, 0x07060504u);
    EXPECT_EQ(g.ht.pio_read(Time::ns(1000)), Time::ns(900));
    // 2800 MB/s (the SeaStar preset): 64 bytes in 22857 ps, truncated.
    EXPECT_EQ(HyperTransportParams{}.transfer_time(64), Time::ps(22'857));
}

TEST(HyperTransport, OutstandingReadsLimitAStreamToWavesOfRequests) {
    HyperTransportParams p;
    p.dma_read_latency = Time::ns(200);
    p.payload_mb_s = 1000;  // 1 ns per byte: a 64-byte request holds the link 64 ns
    p.dma_read_bytes = 64;
    p.dma_outstanding_reads = 2;  // 2 x 64 ns < 200 + 64 ns: the tags run out
    // The first wave: requests 0 and 1 back to back from the first data on.
    EXPECT_EQ(p.read_stream_time(1), Time::ns(1));
    EXPECT_EQ(p.read_stream_time(128), Time::ns(128));
    // Request 2 goes out when request 0's data is in (first data + 64 ns) and answers
    // 200 ns later: waves start every 264 ns.
    EXPECT_EQ(p.read_stream_time(129), Time::ns(264 + 1));
    EXPECT_EQ(p.read_stream_time(256), Time::ns(264 + 128));
    EXPECT_EQ(p.read_stream_time(64 * 10), Time::ns(4 * 264 + 128));
    // 2 x 64 B per 264 ns: 485 MB/s instead of the link's 1000.
    HtFixture f(p);
    EXPECT_EQ(f.ht.dma_read_stream(Time{}, 64 * 10), Time::ns(200));
    EXPECT_EQ(f.ht.dma_read_stream(Time{}, 64), Time::ns(200 + 4 * 264 + 128));  // queued behind it
    // With tags for the latency the stream is the link's alone, as without a limit.
    p.dma_outstanding_reads = 5;  // 5 x 64 >= 264
    EXPECT_EQ(p.read_stream_time(64 * 10), p.transfer_time(64 * 10));
}

// A DMA engine's clock for its stream (ReadStreamClock) gives read_stream_time's values
// for growing prefixes: packet by packet, in odd steps, repeated and across waves, with
// and without waves, requests smaller or larger than the steps and rates that truncate.
TEST(HyperTransport, AReadStreamClockGivesReadStreamTimeForEveryPrefix) {
    struct Case {
        uint64_t rate, request, outstanding;
        Time latency;
    };
    const Case cases[] = {{2800, 64, 4, Time::ns(160)},  // the SeaStar preset: waves
                          {1000, 64, 2, Time::ns(200)},  {1000, 64, 5, Time::ns(200)},  // waves / the link's rate
                          {2800, 48, 3, Time::ns(97)},   {333, 128, 1, Time::ns(1)},
                          {2800, 16, 7, Time::ns(160)},  {2800, 64, 1, Time{}}};
    const uint64_t steps[] = {64, 1, 63, 100, 7, 0, 129, 64, 64, 1, 4096};
    for (const Case& c : cases) {
        HyperTransportParams p;
        p.payload_mb_s = c.rate;
        p.dma_read_bytes = c.request;
        p.dma_outstanding_reads = c.outstanding;
        p.dma_read_latency = c.latency;
        for (uint64_t first : {uint64_t{0}, uint64_t{1}, uint64_t{64}}) {
            ReadStreamClock clock(p);
            uint64_t bytes = first;
            for (int round = 0; round < 40; ++round)
                for (uint64_t step : steps) {
                    ASSERT_EQ(clock.at(bytes), p.read_stream_time(bytes))
                        << bytes << " bytes, rate " << c.rate << ", requests of " << c.request << " x " << c.outstanding;
                    bytes += step;
                }
        }
    }
}

TEST(HyperTransport, BadParametersNameTheField) {
    sim::Kernel kernel;
    host::HostMemory memory;
    auto refused_naming = [&](HyperTransportParams p, const std::string& field) {
        try {
            HyperTransport ht(kernel, memory, p);
            ADD_FAILURE() << "accepted a bad " << field;
        } catch (const HyperTransportConfigError& e) {
            EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
        }
    };
    HyperTransportParams p;
    p.payload_mb_s = 0;
    refused_naming(p, "payload_mb_s");
    p = {};
    p.dma_outstanding_reads = 0;
    refused_naming(p, "dma_outstanding_reads");
    p = {};
    p.pio_read = Time::ns(-1);
    refused_naming(p, "pio_read");
}

}  // namespace
}  // namespace niclab::bus
