// DMA over PCI: bursts, bytes visible in host memory only at completion, contention of
// PIO and DMA on the one bus, interrupt delivery.
#include <gtest/gtest.h>

#include <array>
#include <tuple>
#include <vector>

#include "niclab/host/condition.hpp"
#include "pci_test_support.hpp"

namespace niclab::bus::test {
namespace {

std::vector<uint8_t> pattern(std::size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = uint8_t(seed + i * 7);
    return v;
}

TEST(PciDma, WrittenBytesAreVisibleOnlyAtCompletion) {
    PciFixture f;
    const auto data = pattern(32, 3);  // one burst
    Time done_at;
    f.bus.dma_write(0x1000, data, [&] { done_at = f.kernel.now(); });
    const Time burst = f.bus.params().dma_burst_occupancy(32);
    std::vector<uint8_t> seen_before(32), seen_at(32);
    f.kernel.schedule_at(burst - Time::ps(1), [&] { f.memory.read(0x1000, seen_before); });
    f.kernel.schedule_at(burst + Time::ps(1), [&] { f.memory.read(0x1000, seen_at); });
    f.run();
    EXPECT_EQ(done_at, burst);
    EXPECT_EQ(seen_before, std::vector<uint8_t>(32, 0));
    EXPECT_EQ(seen_at, data);
    EXPECT_EQ(f.bus.counters().bytes_dma_written, 32u);
    EXPECT_EQ(f.bus.counters().dma_bursts, 1u);
}

TEST(PciDma, LongTransfersMoveInBurstsAndLandBurstByBurst) {
    PciFixture f;
    const auto data = pattern(100, 9);
    bool done = false;
    f.bus.dma_write(0x2000, data, [&] { done = true; });
    f.run();
    EXPECT_TRUE(done);
    EXPECT_EQ(f.bus.counters().dma_bursts, 4u);  // 32 + 32 + 32 + 4
    const PciParams& p = f.bus.params();
    EXPECT_EQ(f.kernel.now(), p.dma_burst_occupancy(32) * 3 + p.dma_burst_occupancy(4));
    std::vector<uint8_t> got(100);
    f.memory.read(0x2000, got);
    EXPECT_EQ(got, data);
}

TEST(PciDma, ReadsWaitForHostMemoryOnceUnlessTheStreamContinues) {
    PciFixture f;
    const auto data = pattern(64, 1);
    f.memory.write(0x3000, data);
    std::vector<uint8_t> a(32), b(32);
    Time first, second;
    f.bus.dma_read(0x3000, a, [&] {
        first = f.kernel.now();
        f.bus.dma_read(0x3020, b, [&] { second = f.kernel.now(); });
    });
    f.run();
    const PciParams& p = f.bus.params();
    EXPECT_EQ(first, p.dma_read_latency + p.dma_burst_occupancy(32));
    EXPECT_EQ(second, first + p.dma_burst_occupancy(32));  // sequential: prefetched
    EXPECT_EQ(std::vector<uint8_t>(data.begin(), data.begin() + 32), a);
    EXPECT_EQ(std::vector<uint8_t>(data.begin() + 32, data.end()), b);
}

TEST(PciDma, TwoTransfersAtOnceShareTheBus) {
    const auto data = pattern(4096, 5);
    Time alone;
    {
        PciFixture f;
        f.bus.dma_write(0x10000, data, [&] { alone = f.kernel.now(); });
        f.run();
    }
    // Bus sharing alone: the bridge's prefetch survives the writes here, so the read
    // stream never waits for memory again (test_pci_prefetch.cpp covers the other case).
    PciParams kept;
    kept.dma_write_ends_read_prefetch = false;
    PciFixture f(kept);
    f.memory.write(0x20000, data);
    std::vector<uint8_t> in(4096);
    Time w_done, r_done;
    f.bus.dma_write(0x10000, data, [&] { w_done = f.kernel.now(); });
    f.bus.dma_read(0x20000, in, [&] { r_done = f.kernel.now(); });
    f.run();
    EXPECT_EQ(in, data);
    // The bursts interleave: the write ends nearly twice as late as alone, and the bus
    // was never used by two transfers at once.
    EXPECT_GT(w_done.ps(), alone.ps() * 18 / 10);
    EXPECT_EQ(f.bus.counters().busy, f.bus.params().dma_burst_occupancy(32) * 256);
    EXPECT_GT(f.bus.counters().arbitration_wait, Time{});
}

TEST(PciDma, APioReadDuringDmaWaitsForTheBus) {
    PciFixture f;
    const auto data = pattern(4096, 2);
    f.bus.dma_write(0x10000, data, [] {});
    Time took;
    f.spawn("reader", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 4> w{};
        const Time t0 = ctx.now();
        f.bus.load(ctx, kBase, w);
        took = ctx.now() - t0;
    });
    f.run();
    EXPECT_GT(took, Time::ps(1'030'000));
    // FIFO arbitration: the read waits for at most the burst in progress, not the transfer.
    EXPECT_LE(took, Time::ps(1'030'000) + f.bus.params().dma_burst_occupancy(32));
}

// A DMA burst's event ends by asking for the next burst: on an idle bus that arbitration
// is the next event, so it happens at once (sim::Kernel::fire_inline). With PIO reads and
// stores and a second transfer contending, every time, counter and byte is the same as
// with each arbitration an event.
struct BusyBus {
    std::vector<Time> done, reads;
    std::vector<uint8_t> in;
    PciCounters counters;
    uint64_t events = 0, inline_events = 0;
};

BusyBus run_busy_bus(bool fire_inline, bool status_reads = false) {
    PciFixture f;
    f.kernel.set_fire_inline(fire_inline);
    f.target.reads_may_follow_stall = status_reads;
    BusyBus out;
    const auto data = pattern(4096, 3);
    f.memory.write(0x20000, data);
    out.in.resize(4096);
    auto note_done = [&] { out.done.push_back(f.kernel.now()); };
    f.bus.dma_write(0x10000, data, note_done);
    f.kernel.schedule_at(Time::us(7), [&] { f.bus.dma_read(0x20000, out.in, note_done); });
    f.spawn("pio", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 8> w{};
        for (int i = 0; i < 12; ++i) {
            f.bus.load(ctx, kBase + 8 * i, w);
            f.bus.store(ctx, kBase + 0x100 + 8 * i, w);
            ctx.compute(Time::ns(700 + 90 * i));
        }
    });
    f.run();
    out.reads = f.target.reads;
    for (const auto& w : f.target.writes) out.done.push_back(w.at);
    out.counters = f.bus.counters();
    out.events = f.kernel.events_fired();
    out.inline_events = f.kernel.inline_events_fired();
    return out;
}

// Everything a run of run_busy_bus shows of the bus but how its events were fired.
void expect_same_bus(const BusyBus& a, const BusyBus& b) {
    EXPECT_EQ(a.done, b.done);
    EXPECT_EQ(a.reads, b.reads);
    EXPECT_EQ(a.in, b.in);
    EXPECT_EQ(a.counters.transactions, b.counters.transactions);
    EXPECT_EQ(a.counters.busy, b.counters.busy);
    EXPECT_EQ(a.counters.arbitration_wait, b.counters.arbitration_wait);
    EXPECT_EQ(a.counters.dma_read_fetches, b.counters.dma_read_fetches);
    EXPECT_EQ(a.counters.ordering_wait, b.counters.ordering_wait);
    EXPECT_EQ(a.events, b.events);
}

TEST(PciDma, ABurstsArbitrationHappensAtOnceWhenNothingComesFirstWithTheSameTimes) {
    const BusyBus on = run_busy_bus(true), off = run_busy_bus(false);
    ASSERT_EQ(on.done.size(), 2u + 12u);
    expect_same_bus(on, off);
    EXPECT_GT(on.counters.arbitration_wait, Time{});  // they did contend
    EXPECT_GT(on.inline_events, 0u);
    EXPECT_EQ(off.inline_events, 0u);

    // Reads that may follow the CPU's stall (a status poll's) are granted in place when that
    // stall ends at once: the same times and counts, fewer events in the heap.
    const BusyBus polls = run_busy_bus(true, true), polls_off = run_busy_bus(false, true);
    expect_same_bus(polls, on);
    expect_same_bus(polls_off, off);
    EXPECT_EQ(polls_off.inline_events, 0u);

    // A poller alone on an idle bus: each status read is granted in place.
    auto poll = [](bool status_reads, std::vector<Time>& reads) {
        PciFixture f;
        f.target.reads_may_follow_stall = status_reads;
        f.spawn("poller", [&](host::ProcessContext& ctx) {
            std::array<uint8_t, 4> w{};
            for (int i = 0; i < 10; ++i) f.bus.load(ctx, kBase, w);
        });
        f.run();
        reads = f.target.reads;
        return std::pair{f.kernel.events_fired(), f.kernel.inline_events_fired()};
    };
    std::vector<Time> plain_reads, status_reads;
    const auto plain = poll(false, plain_reads), status = poll(true, status_reads);
    EXPECT_EQ(status_reads, plain_reads);
    EXPECT_EQ(status.first, plain.first);
    EXPECT_EQ(status.second, plain.second + 2 * 10);  // the stall to each grant and the grant

    // Reads that do something (a receive queue's: wake a process, schedule an event at
    // their time), granted in place after the stall: every time the same, as each process
    // and event sees it, with a second process woken on the reader's CPU's other core (its
    // dispatch is an event either way).
    auto popping = [](bool in_place) {
        host::HostConfig two_cores;
        two_cores.cores = 2;
        PciFixture f({}, two_cores);
        f.target.reads_may_follow_stall = in_place;
        host::Condition popped;
        std::vector<Time> seen;
        f.target.on_read = [&] {
            popped.notify_all();
            f.kernel.schedule_at(f.kernel.now(), [&] { seen.push_back(f.kernel.now()); });
        };
        bool reading = true;
        f.spawn("reader", [&](host::ProcessContext& ctx) {
            std::array<uint8_t, 8> w{};
            for (int i = 0; i < 10; ++i) {
                f.bus.load(ctx, kBase + 8 * i, w);
                ctx.compute(Time::ns(40 * (i % 3)));
            }
            reading = false;
        });
        f.spawn("waiter", [&](host::ProcessContext& ctx) {
            while (reading) {
                ctx.wait(popped);
                seen.push_back(ctx.now());
                ctx.compute(Time::ns(15));
            }
        });
        f.run();
        return std::tuple{f.target.reads, seen, f.kernel.events_fired(), f.kernel.inline_events_fired()};
    };
    const auto [reads_after, seen_after, events_after, inline_after] = popping(true);
    const auto [reads_before, seen_before, events_before, inline_before] = popping(false);
    ASSERT_EQ(reads_after.size(), 10u);
    EXPECT_EQ(reads_after, reads_before);
    EXPECT_EQ(seen_after, seen_before);
    EXPECT_GE(seen_after.size(), 10u);
    EXPECT_EQ(events_after, events_before);
    EXPECT_GT(inline_after, inline_before);

    // Alone on the bus, every burst after the first is granted at once.
    PciFixture f;
    f.bus.dma_write(0x10000, pattern(4096, 1), [] {});
    f.run();
    EXPECT_EQ(f.kernel.inline_events_fired(), 4096 / 32 - 1);
}

TEST(PciDma, InterruptsArriveAfterTheLatency) {
    PciFixture f;
    Time raised_at, handled_at;
    f.kernel.schedule_at(Time::us(5), [&] {
        f.bus.raise_interrupt([&](host::InterruptContext& ic) {
            raised_at = ic.raised_at();
            handled_at = ic.now();
        });
    });
    f.run();
    const Time expected = Time::us(5) + f.bus.params().interrupt_latency;
    EXPECT_EQ(raised_at, expected);
    EXPECT_EQ(handled_at, expected + f.cpu.config().interrupt_entry);
    EXPECT_EQ(f.bus.counters().interrupts, 1u);
}

}  // namespace
}  // namespace niclab::bus::test
