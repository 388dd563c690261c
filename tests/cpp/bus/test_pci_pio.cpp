// Host PIO over PCI: the read stall through 002's two measured points, ordering of loads
// after stores, store merging through consecutive addresses, the store buffer, errors.
#include <gtest/gtest.h>

#include <array>

#include "pci_test_support.hpp"

namespace niclab::bus::test {
namespace {

Time timed_load(PciFixture& f, uint32_t bytes) {
    Time took;
    f.spawn("reader", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 64> buf{};
        const Time t0 = ctx.now();
        f.bus.load(ctx, kBase + 64, std::span(buf.data(), bytes));
        took = ctx.now() - t0;
    });
    f.run();
    return took;
}

TEST(PciPio, ReadStallEqualsTheMeasuredPointsAndInterpolates) {
    {
        PciFixture f;
        EXPECT_EQ(timed_load(f, 4), Time::ps(1'030'000));  // 002 §5.1 L155
    }
    {
        PciFixture f;
        EXPECT_EQ(timed_load(f, 64), Time::ps(1'960'000));  // 002 §5.1 L164
    }
    {
        PciFixture f;
        // Linear: 1.03 us + 4 B * (0.93 us / 60 B) = 1.092 us.
        EXPECT_EQ(timed_load(f, 8), Time::ps(1'092'000));
        EXPECT_EQ(f.bus.counters().pio_reads, 1u);
        EXPECT_EQ(f.bus.counters().bytes_pio_read, 8u);
        // The stall is CPU time of the reader (it shows in measured overheads).
        EXPECT_EQ(f.procs[0]->user_time(), Time::ps(1'092'000));
    }
}

TEST(PciPio, LoadReturnsTheTargetsBytesAtTheStartOfItsBusSlot) {
    PciFixture f;
    std::array<uint8_t, 8> buf{};
    f.spawn("reader", [&](host::ProcessContext& ctx) { f.bus.load(ctx, kBase + 0x28, buf); });
    f.run();
    for (uint8_t b : buf) EXPECT_EQ(b, 0x28);
    ASSERT_EQ(f.target.reads.size(), 1u);
    EXPECT_EQ(f.target.reads[0], f.bus.params().host_path_latency);
}

TEST(PciPio, ConsecutiveStoresMergeIntoOneBurst) {
    PciFixture f;
    f.spawn("writer", [&](host::ProcessContext& ctx) {
        for (uint32_t i = 0; i < 8; ++i) {
            std::array<uint8_t, 8> w{};
            w.fill(uint8_t(i + 1));
            f.bus.store(ctx, kBase + 8 * i, w);
        }
        f.bus.flush(ctx);
    });
    f.run();
    const PciCounters& c = f.bus.counters();
    EXPECT_EQ(c.stores, 8u);
    EXPECT_EQ(c.pio_writes, 1u);
    EXPECT_EQ(c.merged_stores, 7u);
    ASSERT_EQ(f.target.writes.size(), 1u);
    EXPECT_EQ(f.target.writes[0].offset, 0u);
    ASSERT_EQ(f.target.writes[0].data.size(), 64u);
    for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(f.target.writes[0].data[i], uint8_t(i / 8 + 1));
    // A full 64-byte burst goes as soon as its last store reached the bridge (no merge
    // window to wait for) and reaches the target when the transaction has run.
    const PciParams& p = f.bus.params();
    EXPECT_EQ(f.target.writes[0].at, p.store_issue_cost * 8 + p.host_path_latency + p.write_occupancy(64));
}

TEST(PciPio, APartialBurstWaitsOutTheMergeWindow) {
    PciFixture f;
    f.spawn("writer", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 8> w{};
        f.bus.store(ctx, kBase, w);
        f.bus.store(ctx, kBase + 8, w);
    });
    f.run();
    const PciParams& p = f.bus.params();
    ASSERT_EQ(f.target.writes.size(), 1u);
    EXPECT_EQ(f.target.writes[0].data.size(), 16u);
    EXPECT_EQ(f.target.writes[0].at,
              p.store_issue_cost * 2 + p.host_path_latency + p.merge_window + p.write_occupancy(16));
}

TEST(PciPio, StoresToOneAddressAreOneTransactionEach) {
    PciFixture f;
    f.spawn("writer", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 8> w{};
        for (int i = 0; i < 8; ++i) f.bus.store(ctx, kBase, w);
        f.bus.flush(ctx);
    });
    f.run();
    EXPECT_EQ(f.bus.counters().pio_writes, 8u);
    EXPECT_EQ(f.bus.counters().merged_stores, 0u);
    EXPECT_EQ(f.target.writes.size(), 8u);
    // Eight transactions back to back: more bus time than one merged burst.
    EXPECT_EQ(f.bus.counters().busy, f.bus.params().write_occupancy(8) * 8);
}

TEST(PciPio, BurstsDoNotCrossTheMergeLimit) {
    PciFixture f;
    f.spawn("writer", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 8> w{};
        for (uint32_t i = 0; i < 12; ++i) f.bus.store(ctx, kBase + 8 * i, w);  // 96 bytes
        f.bus.flush(ctx);
    });
    f.run();
    ASSERT_EQ(f.target.writes.size(), 2u);
    EXPECT_EQ(f.target.writes[0].data.size(), 64u);
    EXPECT_EQ(f.target.writes[1].data.size(), 32u);
    EXPECT_EQ(f.target.writes[1].offset, 64u);
}

TEST(PciPio, AFullStoreBufferStallsTheCpu) {
    PciParams p;
    p.store_buffer_entries = 2;
    PciFixture f(p);
    Time took;
    f.spawn("writer", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 4> w{};
        const Time t0 = ctx.now();
        for (int i = 0; i < 6; ++i) f.bus.store(ctx, kBase, w);  // no merging: one entry each
        took = ctx.now() - t0;
        f.bus.flush(ctx);
    });
    f.run();
    const PciCounters& c = f.bus.counters();
    EXPECT_GT(c.store_stalls, 0u);
    EXPECT_GT(c.store_stall_time, Time{});
    EXPECT_EQ(took, p.store_issue_cost * 6 + c.store_stall_time);
    EXPECT_EQ(f.target.writes.size(), 6u);
    // A deep buffer would not have stalled.
    PciFixture g;
    g.spawn("writer", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 4> w{};
        for (int i = 0; i < 6; ++i) g.bus.store(ctx, kBase, w);
    });
    g.run();
    EXPECT_EQ(g.bus.counters().store_stalls, 0u);
}

TEST(PciPio, StoresArePostedAndFlushWaitsForThem) {
    PciFixture f;
    Time after_store, after_flush;
    f.spawn("writer", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 4> w{1, 2, 3, 4};
        f.bus.store(ctx, kBase + 4, w);
        after_store = ctx.now();
        EXPECT_EQ(f.bus.pending_stores(), 1u);
        f.bus.flush(ctx);
        after_flush = ctx.now();
        EXPECT_EQ(f.bus.pending_stores(), 0u);
    });
    f.run();
    const PciParams& p = f.bus.params();
    EXPECT_EQ(after_store, p.store_issue_cost);
    ASSERT_EQ(f.target.writes.size(), 1u);
    // flush closes the open write at once: no merge window.
    EXPECT_EQ(f.target.writes[0].at, p.store_issue_cost + p.host_path_latency + p.write_occupancy(4));
    EXPECT_EQ(after_flush, f.target.writes[0].at);
}

TEST(PciPio, LoadsWaitForEarlierStores) {
    PciFixture f;
    Time load_took;
    f.spawn("rw", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 4> w{};
        f.bus.store(ctx, kBase, w);
        const Time t0 = ctx.now();
        f.bus.load(ctx, kBase, w);
        load_took = ctx.now() - t0;
    });
    f.run();
    ASSERT_EQ(f.target.writes.size(), 1u);
    ASSERT_EQ(f.target.reads.size(), 1u);
    EXPECT_LT(f.target.writes[0].at, f.target.reads[0]);
    EXPECT_GT(load_took, Time::ps(1'030'000));
    EXPECT_GT(f.bus.counters().ordering_wait, Time{});
}

TEST(PciPio, BadAccessesAreTypedErrors) {
    PciFixture f;
    auto& p1 = f.spawn("misaligned", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 8> w{};
        f.bus.store(ctx, kBase + 4, w);
    });
    auto& p2 = f.spawn("size", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 12> w{};
        f.bus.store(ctx, kBase, w);
    });
    auto& p3 = f.spawn("unmapped", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 4> w{};
        f.bus.load(ctx, kBase + kWindow, w);
    });
    auto& p4 = f.spawn("target", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 4> w{};
        f.target.fail_reads = true;
        f.bus.load(ctx, kBase, w);
    });
    f.kernel.run_until(Time::ms(1), true);
    for (auto* p : {&p1, &p2, &p3, &p4}) {
        ASSERT_TRUE(p->failed()) << p->name();
        EXPECT_THROW(p->rethrow_if_failed(), BusError) << p->name();
    }
    EXPECT_NE(p1.error_message().find("not naturally aligned"), std::string::npos);
    EXPECT_NE(p2.error_message().find("12 bytes"), std::string::npos);
    EXPECT_NE(p3.error_message().find("no mapped PCI window"), std::string::npos);
    RecordingTarget other;
    EXPECT_THROW(f.bus.map(kBase + 0x100, 0x100, other), BusError);
}

TEST(PciParams, ValidationNamesTheField) {
    PciParams p;
    p.width_bytes = 3;
    try {
        p.validate();
        FAIL();
    } catch (const BusConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("width_bytes"), std::string::npos);
    }
    PciParams q;
    q.merge_limit_bytes = 48;
    EXPECT_THROW(q.validate(), BusConfigError);
    PciParams r;
    r.clock_hz = 66.66e6;
    r.width_bytes = 8;
    EXPECT_NO_THROW(r.validate());
    EXPECT_EQ(r.cycles(3), Time::ps(45'005));  // 3 / 66.66 MHz, to the picosecond
    EXPECT_EQ(PciParams{}.cycles(1), Time::ps(30'003));  // 33.33 MHz
}

}  // namespace
}  // namespace niclab::bus::test
