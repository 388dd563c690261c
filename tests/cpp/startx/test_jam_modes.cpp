// JAM's modes side by side on two back-to-back nodes: low-priority PIO messages while an
// RDMA stream owns the high-priority queue (seed 002 §5.3 L186: "RDMA operations do not
// interfere with low-priority message passing in the PIO mode"), and VI receive through a
// buffer small enough to be exhausted and re-armed many times (§5.2 L176).
#include <gtest/gtest.h>

#include <vector>

#include "test_jam_support.hpp"

namespace niclab::startx::test {
namespace {

uint32_t word1(uint32_t sender, uint32_t i) {
    JamWord w;
    w.sender = sender;
    w.kind = JamKind::stream;
    w.low = i;
    return w.pack();
}

TEST(JamModes, LowPriorityPioFlowsWhileRdmaOwnsTheHighPriorityQueue) {
    JamPair t;
    constexpr uint64_t kRdma = 64 * 1024;  // ~0.75 ms of RDMA at the bus's rate
    constexpr uint32_t kLow = 12, kWords = 10;
    const uint64_t src = kBuf, window = 0x800000;
    const auto block = bytes_of(uint32_t(kRdma), 5);
    t.a.memory.write(src, block);
    for (uint32_t i = 0; i < kLow; ++i) t.a.memory.write(0x200000 + 64 * i, bytes_of(4 * kWords, 100 + i));
    Time last_low, window_done;
    t.spawn(t.b, "receiver", [&](host::ProcessContext& ctx) {
        t.jb.rdma_open_window(ctx, window, kRdma, 0);
        for (uint32_t i = 0; i < kLow; ++i) {
            const JamMessage m = t.jb.receive(ctx, Priority::low, kBuf);
            EXPECT_EQ(m.header.priority, Priority::low);
            EXPECT_EQ(m.word.low, i);  // FIFO on the fixed path
            std::vector<uint8_t> got(4 * kWords);
            t.b.memory.read(kBuf, got);
            EXPECT_EQ(got, bytes_of(4 * kWords, 100 + i)) << "low message " << i;
        }
        last_low = ctx.now();
        t.jb.rdma_wait_window(ctx);
        window_done = ctx.now();
    });
    t.spawn(t.a, "sender", [&](host::ProcessContext& ctx) {
        ctx.sleep_for(Time::us(50));  // the window is open by then
        t.ja.rdma_headers(ctx, 1, word1(0, 0));
        t.ja.rdma_transmit(ctx, src, kRdma);
        for (uint32_t i = 0; i < kLow; ++i) t.ja.send(ctx, 1, Priority::low, word1(0, i), 0x200000 + 64 * i, kWords);
        t.ja.wait_tx_dma(ctx);
    });
    t.run(Time::ms(50));
    for (auto& p : t.procs) EXPECT_TRUE(p->done()) << p->name();
    std::vector<uint8_t> got(kRdma);
    t.b.memory.read(window, got);
    EXPECT_EQ(got, block);
    EXPECT_EQ(t.b.niu.counters().rdma_bytes_received, kRdma);
    // The low-priority messages did not wait for the stream: all arrived while it ran.
    EXPECT_LT(last_low, window_done);
}

TEST(JamModes, ViReceiveIsReArmedEachTimeItsBufferIsExhausted) {
    JamPair t;
    constexpr uint32_t kN = 20, kWords = kMaxPayloadWords;  // 96-byte messages
    constexpr uint64_t kViBytes = 5 * kMaxBytes + 32;        // room for five, then exhausted
    for (uint32_t i = 0; i < kN; ++i) t.a.memory.write(kBuf + 128 * i, bytes_of(4 * kWords, i));
    t.spawn(t.a, "sender", [&](host::ProcessContext& ctx) {
        for (uint32_t i = 0; i < kN; ++i) t.ja.send(ctx, 1, Priority::high, word1(0, i), kBuf + 128 * i, kWords);
    });
    t.spawn(t.b, "vi", [&](host::ProcessContext& ctx) {
        const uint64_t region = t.jb.allocate(kViBytes, 64);
        t.jb.vi_arm_receive(ctx, region, kViBytes);
        for (uint32_t i = 0; i < kN; ++i) {
            const JamMessage m = t.jb.vi_wait(ctx);
            EXPECT_EQ(m.word.low, i);
            EXPECT_EQ(m.payload_addr, region + 8 + uint64_t(kMaxBytes) * (i % 5));  // wraps to the base
            std::vector<uint8_t> got(4 * kWords);
            t.b.memory.read(m.payload_addr, got);
            EXPECT_EQ(got, bytes_of(4 * kWords, i)) << "message " << i;
            t.jb.vi_consume(ctx);
        }
    });
    t.run(Time::ms(50));
    for (auto& p : t.procs) EXPECT_TRUE(p->done()) << p->name();
    EXPECT_EQ(t.b.niu.counters().vi_messages_received, kN);
    EXPECT_EQ(t.jb.counters().driver_calls, 1u + (kN / 5 - 1));  // the arm and three re-arms
    EXPECT_EQ(t.b.niu.rx_messages(Priority::high), 0u);
}

}  // namespace
}  // namespace niclab::startx::test
