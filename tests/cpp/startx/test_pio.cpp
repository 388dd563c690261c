// PIO mode end to end between two NIUs: byte-exact delivery at both priorities and all
// lengths, ldd/std and ldda/stda, burst merging through aliased addresses, queue-full and
// the status word, CRC, the receive interrupt, typed errors.
#include <gtest/gtest.h>

#include "startx_test_support.hpp"

namespace niclab::startx::test {
namespace {

TEST(StartxPio, EveryLengthAndPriorityArrivesByteExact) {
    Pair t;
    std::vector<Message> sent, got;
    t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
        for (uint32_t words = kMinPayloadWords; words <= kMaxPayloadWords; ++words)
            for (Priority p : {Priority::high, Priority::low}) {
                sent.push_back(make_msg(1, p, words, words * 2 + uint32_t(p)));
                pio_send(ctx, t.a, sent.back());
            }
        t.a.bus.flush(ctx);
    });
    t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) {
        for (std::size_t i = 0; i < 2 * (kMaxPayloadWords - 1); ++i)
            got.push_back(pio_recv(ctx, t.b, i % 2 ? Priority::low : Priority::high));
    });
    t.run();
    ASSERT_EQ(got.size(), sent.size());
    for (std::size_t i = 0; i < sent.size(); ++i) EXPECT_TRUE(same(got[i], sent[i])) << "message " << i;
    EXPECT_EQ(t.a.niu.counters().messages_injected[0], kMaxPayloadWords - 1);
    EXPECT_EQ(t.b.niu.counters().messages_accepted[1], kMaxPayloadWords - 1);
    EXPECT_EQ(t.b.niu.counters().crc_errors, 0u);
}

TEST(StartxPio, BlockStoreAndBlockLoadMoveA64ByteMessageInOneTransactionEach) {
    Pair t;
    const Message m = make_msg(1, Priority::high, 14, 99);  // 16 words = 64 bytes
    Message got;
    t.spawn(t.a, "send", [&](host::ProcessContext& ctx) { pio_send64(ctx, t.a, m); });
    t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) { got = pio_recv64(ctx, t.b, Priority::high); });
    t.run();
    EXPECT_TRUE(same(got, m));
    EXPECT_EQ(t.a.bus.counters().pio_writes, 1u);
    EXPECT_EQ(t.a.bus.counters().bytes_pio_written, 64u);
    EXPECT_EQ(t.b.bus.counters().bytes_pio_read - 4 * t.b.niu.counters().status_reads, 64u);
}

TEST(StartxPio, ConsecutiveAliasedStoresMergeStoresToOneAddressDoNot) {
    const Message m = make_msg(1, Priority::high, 14, 5);  // 64 bytes: 8 std
    for (bool same_address : {false, true}) {
        Pair t;
        Message got;
        t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
            pio_send(ctx, t.a, m, same_address);
            t.a.bus.flush(ctx);
        });
        t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) { got = pio_recv(ctx, t.b, Priority::high); });
        t.run();
        EXPECT_TRUE(same(got, m));
        EXPECT_EQ(t.a.bus.counters().pio_writes, same_address ? 8u : 1u);
        EXPECT_EQ(t.a.niu.counters().words_written, 16u);
    }
}

TEST(StartxPio, StatusCountsSaturateAndAFullTransmitQueueOverflows) {
    Pair t;  // b never reads: its receive queue fills, then the wire, then a's transmit queue
    uint32_t sent = 0;
    Status before_overflow;
    t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
        for (;;) {
            if (sent == 44) before_overflow = t.a.niu.status();
            pio_send(ctx, t.a, make_msg(1, Priority::high, 2, sent));
            t.a.bus.flush(ctx);
            if (t.a.niu.faulted()) break;  // the posted words overflowed: the NIU stopped
            ++sent;
            ctx.compute(Time::us(2));  // let the previous one reach the link
        }
    });
    t.run();
    EXPECT_NE(t.a.niu.fault().find("already holds 20 messages"), std::string::npos) << t.a.niu.fault();
    EXPECT_FALSE(t.b.niu.faulted());
    // b: 20 in its receive queue (status saturates at 16), 4 held in the network; a: 20
    // waiting in its transmit queue; the 45th message overflows.
    EXPECT_EQ(t.b.niu.rx_messages(Priority::high), 20u);
    EXPECT_EQ(t.b.niu.status().rx_count[0], 16);
    EXPECT_EQ(t.b.niu.status().rx_count[1], 0);
    EXPECT_GT(t.b.niu.counters().messages_refused[0], 0u);
    EXPECT_EQ(t.a.niu.tx_space(Priority::high), 0u);
    EXPECT_EQ(before_overflow.tx_space[0], 0);
    EXPECT_EQ(before_overflow.tx_space[1], 20);  // low priority untouched
    EXPECT_EQ(sent, 44u);
}

TEST(StartxPio, LowPriorityFlowsWhileHighIsBlocked) {
    Pair t;
    Message got;
    const Message low = make_msg(1, Priority::low, 3, 77);
    t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
        for (uint32_t i = 0; i < 30; ++i) pio_send(ctx, t.a, make_msg(1, Priority::high, 2, i));
        pio_send(ctx, t.a, low);
    });
    t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) {
        ctx.compute(Time::us(200));
        got = pio_recv(ctx, t.b, Priority::low);
    });
    t.run();
    EXPECT_TRUE(same(got, low));
    EXPECT_EQ(t.b.niu.rx_messages(Priority::high), 20u);
}

TEST(StartxPio, ACorruptedMessageFailsItsCrcAndIsDropped) {
    Pair t;
    t.pa.corrupt_next = true;
    Message got;
    const Message good = make_msg(1, Priority::high, 2, 2);
    t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
        pio_send(ctx, t.a, make_msg(1, Priority::high, 2, 1));
        pio_send(ctx, t.a, good);
    });
    t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) { got = pio_recv(ctx, t.b, Priority::high); });
    t.run();
    EXPECT_EQ(t.b.niu.counters().crc_errors, 1u);
    EXPECT_TRUE(same(got, good));
    EXPECT_EQ(t.b.niu.rx_messages(Priority::high), 0u);
}

TEST(StartxPio, TheReceiveInterruptRunsAfterArrival) {
    Pair t;
    int handled = 0;
    Time at;
    t.b.niu.set_rx_interrupt([&](host::InterruptContext& ic) {
        ++handled;
        at = ic.raised_at();
    });
    t.spawn(t.a, "send", [&](host::ProcessContext& ctx) { pio_send(ctx, t.a, make_msg(1, Priority::low, 2, 1)); });
    t.run();
    EXPECT_EQ(handled, 1);
    EXPECT_GT(at, t.pa.injected.at(0) + t.b.bus.params().interrupt_latency);
    EXPECT_EQ(t.b.niu.counters().interrupts, 1u);
}

TEST(StartxPio, ReadingAnEmptyQueueFailsTheReader) {
    Pair t;
    auto& p = t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) {
        std::array<uint8_t, 4> w{};
        t.b.bus.load(ctx, t.b.reg(Reg::rx_low), w);
    });
    t.k.run_until(Time::ms(1), true);
    ASSERT_TRUE(p.failed());
    EXPECT_THROW(p.rethrow_if_failed(), EmptyQueueError);
    EXPECT_NE(p.error_message().find("low-priority receive queue, which is empty"), std::string::npos);
}

TEST(StartxPio, MalformedHeadersFaultTheNiuWithTheError) {
    {
        Pair t;  // a 23-word payload written by PIO
        t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
            std::array<uint8_t, 4> w{};
            const uint32_t h = 0x20 | 23;
            for (int i = 0; i < 4; ++i) w[i] = uint8_t(h >> (8 * i));
            t.a.bus.store(ctx, t.a.reg(Reg::tx_high), w);
        });
        t.run();
        EXPECT_NE(t.a.niu.fault().find("23 payload words"), std::string::npos) << t.a.niu.fault();
    }
    {
        Pair t;  // a low-priority header written into the high-priority queue
        t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
            std::array<uint8_t, 16> b{};
            make_msg(1, Priority::low, 2, 0).to_bytes(b);
            t.a.bus.store(ctx, t.a.reg(Reg::tx_high), std::span<const uint8_t>(b.data(), 8));
        });
        t.run();
        EXPECT_TRUE(t.a.niu.faulted());
        EXPECT_NE(t.a.niu.fault().find("priority"), std::string::npos) << t.a.niu.fault();
    }
}

TEST(StartxPio, RunsAreDeterministic) {
    auto once = [] {
        Pair t;
        t.spawn(t.a, "send", [&](host::ProcessContext& ctx) {
            for (uint32_t i = 0; i < 10; ++i) pio_send(ctx, t.a, make_msg(1, Priority::high, 2 + i, i));
        });
        t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) {
            for (int i = 0; i < 10; ++i) pio_recv(ctx, t.b, Priority::high);
        });
        t.run();
        return std::make_pair(t.pa.injected, t.k.now());
    };
    EXPECT_EQ(once(), once());
}

}  // namespace
}  // namespace niclab::startx::test
