// JAM's PIO primitives on two back-to-back nodes: byte-exact delivery of every message
// length on both priorities, the 64-byte primitives, status-word amortization (002 §5.1
// L166), and typed errors.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "test_jam_support.hpp"

namespace niclab::startx::test {
namespace {

TEST(JamPio, EveryLengthAndPriorityArrivesByteExact) {
    JamPair t;
    for (uint32_t p = 0; p < 2; ++p)
        for (uint32_t w = kMinPayloadWords; w <= kMaxPayloadWords; ++w)
            t.a.memory.write(kBuf + (p * 32 + w) * 128, bytes_of(w * 4, p * 32 + w));
    t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
        for (uint32_t p = 0; p < 2; ++p)
            for (uint32_t w = kMinPayloadWords; w <= kMaxPayloadWords; ++w)
                t.ja.send(ctx, 1, Priority(p), 1000 + w, kBuf + (p * 32 + w) * 128, w);
    });
    t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) {
        for (uint32_t p = 0; p < 2; ++p)
            for (uint32_t w = kMinPayloadWords; w <= kMaxPayloadWords; ++w) {
                const JamMessage m = t.jb.receive(ctx, Priority(p), kBuf);
                EXPECT_EQ(m.payload_words, w);
                EXPECT_EQ(m.header.priority, Priority(p));
                EXPECT_EQ(m.word.pack(), 1000 + w);
                std::vector<uint8_t> got(w * 4);
                t.b.memory.read(kBuf, got);
                EXPECT_EQ(got, bytes_of(w * 4, p * 32 + w)) << "priority " << p << ", " << w << " words";
            }
    });
    t.run();
    EXPECT_EQ(t.jb.counters().messages_received, 42u);
}

TEST(JamPio, SixtyFourBytePrimitivesMoveWholeMessages) {
    JamPair t;
    constexpr int kN = 30;  // more than a queue holds: the sender waits for space
    for (int i = 0; i < kN; ++i) t.a.memory.write(kBuf + 64 * i + 8, bytes_of(56, i));
    t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
        for (int i = 0; i < kN; ++i) {
            t.ja.format64(ctx, kBuf + 64 * i, 1, Priority::high, uint32_t(i));
            t.ja.send64(ctx, Priority::high, kBuf + 64 * i);
        }
    });
    t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) {
        for (int i = 0; i < kN; ++i) {
            const JamMessage m = t.jb.receive64(ctx, Priority::high, kBuf + 64 * (i % 4));
            EXPECT_EQ(m.word.pack(), uint32_t(i));
            EXPECT_EQ(m.payload_addr, kBuf + 64 * (i % 4) + 8);
            std::vector<uint8_t> got(56);
            t.b.memory.read(m.payload_addr, got);
            EXPECT_EQ(got, bytes_of(56, i));
        }
    });
    t.run();
    // One store per message (stda), one load per message (ldda).
    EXPECT_EQ(t.a.bus.counters().stores, uint64_t(kN));
    EXPECT_EQ(t.b.bus.counters().pio_reads - t.jb.counters().status_reads, uint64_t(kN));
}

TEST(JamPio, OneStatusReadServesManySendsAndReceives) {
    JamPair t;
    t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
        for (int i = 0; i < 16; ++i) t.ja.send(ctx, 1, Priority::high, 0, kBuf, 2);
    });
    t.run();
    EXPECT_EQ(t.ja.counters().status_reads, 1u);  // 20 slots promised by the first read
    t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) {
        ctx.sleep_for(Time::us(50));  // all 16 have arrived
        for (int i = 0; i < 16; ++i) t.jb.receive(ctx, Priority::high, kBuf);
    });
    t.run(Time::ms(40));
    EXPECT_EQ(t.jb.counters().status_reads, 1u);  // a count of 16 covers all of them
}

TEST(JamPio, ReceiveCostIsStatusReadPlusLdds) {
    // A 16-byte message (Table 1 row a) costs the receiver one status read and two ldd's.
    JamPair t;
    t.spawn(t.a, "send", [&](host::ProcessContext& ctx) { t.ja.send(ctx, 1, Priority::high, 0, kBuf, 2); });
    Time took;
    t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) {
        ctx.sleep_for(Time::us(20));
        const Time t0 = ctx.now();
        t.jb.receive(ctx, Priority::high, kBuf);
        took = ctx.now() - t0;
    });
    t.run();
    EXPECT_EQ(t.b.bus.counters().pio_reads, 3u);
    const bus::PciParams& pp = t.b.bus.params();
    const Time reads = pp.read_stall(4) + pp.read_stall(8) * 2;
    EXPECT_GE(took, reads);
    EXPECT_LT(took, reads + t.jb.cycles(200));
}

TEST(JamPio, BadLengthsAndBuffersAreTypedErrors) {
    JamPair t;
    auto& p = t.spawn(t.a, "bad", [&](host::ProcessContext& ctx) {
        EXPECT_THROW(t.ja.send(ctx, 1, Priority::high, 0, kBuf, 23), MessageFormatError);
        EXPECT_THROW(t.ja.send(ctx, 1, Priority::high, 0, kBuf, 1), MessageFormatError);
        EXPECT_THROW(t.ja.send(ctx, 300, Priority::high, 0, kBuf, 2), MessageFormatError);
        EXPECT_THROW(t.ja.send(ctx, 1, Priority::high, 0, kBuf + 2, 2), DriverError);
        EXPECT_THROW(t.ja.format64(ctx, kBuf + 8, 1, Priority::high, 0), DriverError);
        EXPECT_THROW(priority_from_int(2), UnknownPriorityError);
    });
    t.run();
    EXPECT_TRUE(p.done());
}

}  // namespace
}  // namespace niclab::startx::test
