// VI and RDMA modes end to end: byte-exact delivery into host memory, VI's header-last
// arrival rule and buffer exhaustion, RDMA packetization and stripping, and the RDMA
// exclusivity rules as typed errors.
#include <gtest/gtest.h>

#include "startx_test_support.hpp"

namespace niclab::startx::test {
namespace {

constexpr uint64_t kViTx = 0x100000, kViRx = 0x200000;

// Write `msgs` back to back into host memory at `at`; returns the bytes written.
uint64_t lay_out(host::HostMemory& mem, uint64_t at, const std::vector<Message>& msgs) {
    uint64_t off = 0;
    for (const Message& m : msgs) {
        std::array<uint8_t, kMaxBytes> b{};
        m.to_bytes(b);
        mem.write(at + off, std::span<const uint8_t>(b.data(), m.bytes()));
        off += m.bytes();
    }
    return off;
}

Message read_back(host::HostMemory& mem, uint64_t at) {
    std::array<uint8_t, 4> w{};
    mem.read(at, w);
    Message m;
    m.words[0] = le(w.data());
    m.n_words = uint8_t(m.header().total_words());
    for (uint32_t i = 1; i < m.n_words; ++i) {
        mem.read(at + 4 * i, w);
        m.words[i] = le(w.data());
    }
    return m;
}

TEST(StartxVi, ABatchArrivesByteExactInTheReceiveBuffer) {
    Pair t;
    std::vector<Message> msgs;
    for (uint32_t i = 0; i < 30; ++i) msgs.push_back(make_msg(1, Priority::high, 2 + i % 21, i));
    const uint64_t bytes = lay_out(t.a.memory, kViTx, msgs);
    t.b.niu.vi_arm_receive(kViRx, 1 << 20);
    t.a.niu.vi_transmit(kViTx, bytes);
    EXPECT_TRUE(t.a.niu.status().tx_dma_busy);
    t.run();
    EXPECT_FALSE(t.a.niu.tx_dma_busy());
    EXPECT_EQ(t.a.niu.counters().vi_messages_sent, 30u);
    EXPECT_EQ(t.b.niu.counters().vi_messages_received, 30u);
    EXPECT_EQ(t.b.niu.vi_receive_offset(), bytes);
    uint64_t off = 0;
    for (std::size_t i = 0; i < msgs.size(); ++i) {
        const Message got = read_back(t.b.memory, kViRx + off);
        EXPECT_TRUE(same(got, msgs[i])) << "message " << i;
        off += got.bytes();
    }
}

TEST(StartxVi, AHostPollingTheHeaderWordSeesOnlyWholeMessages) {
    Pair t;
    std::vector<Message> msgs;
    for (uint32_t i = 0; i < 8; ++i) msgs.push_back(make_msg(1, Priority::high, 22, i + 1));
    const uint64_t bytes = lay_out(t.a.memory, kViTx, msgs);
    t.b.niu.vi_arm_receive(kViRx, 1 << 16);
    t.a.niu.vi_transmit(kViTx, bytes);
    // Watch the receive buffer every 10 ns: whenever a header word is there, all of its
    // message must be there too.
    int checks = 0, violations = 0;
    std::function<void()> watch = [&] {
        uint64_t off = 0;
        for (const Message& m : msgs) {
            std::array<uint8_t, 4> w{};
            t.b.memory.read(kViRx + off, w);
            if (le(w.data()) == 0) break;
            ++checks;
            if (!same(read_back(t.b.memory, kViRx + off), m)) ++violations;
            off += m.bytes();
        }
        if (t.k.now() < Time::us(30)) t.k.schedule_in(Time::ns(10), [&] { watch(); });
    };
    t.k.schedule_at(Time{}, [&] { watch(); });
    t.run();
    EXPECT_GT(checks, 0);
    EXPECT_EQ(violations, 0);
    EXPECT_EQ(t.b.niu.counters().vi_messages_received, 8u);
}

TEST(StartxVi, AnExhaustedBufferHoldsMessagesUntilReArmed) {
    Pair t;
    std::vector<Message> msgs;
    for (uint32_t i = 0; i < 3; ++i) msgs.push_back(make_msg(1, Priority::high, 22, i + 1));  // 96 B each
    const uint64_t bytes = lay_out(t.a.memory, kViTx, msgs);
    t.b.niu.vi_arm_receive(kViRx, 2 * kMaxBytes);
    t.a.niu.vi_transmit(kViTx, bytes);
    t.run();
    EXPECT_EQ(t.b.niu.counters().vi_messages_received, 2u);
    EXPECT_TRUE(t.b.niu.status().vi_rx_exhausted);
    EXPECT_EQ(t.b.niu.rx_messages(Priority::high), 1u);
    t.b.niu.vi_arm_receive(kViRx + 0x1000, 4 * kMaxBytes);
    t.run();
    EXPECT_EQ(t.b.niu.counters().vi_messages_received, 3u);
    EXPECT_TRUE(same(read_back(t.b.memory, kViRx + 0x1000), msgs[2]));
}

TEST(StartxVi, ABatchEndingInsideAMessageFaultsTheNiu) {
    Pair t;
    const uint64_t bytes = lay_out(t.a.memory, kViTx, {make_msg(1, Priority::high, 10, 1)});
    t.a.niu.vi_transmit(kViTx, bytes - 8);  // length field says 12 words, 10 are given
    t.run();
    EXPECT_NE(t.a.niu.fault().find("12 words"), std::string::npos) << t.a.niu.fault();
}

TEST(StartxVi, ItCanBeDrivenThroughTheControlPage) {
    Pair t;
    const Message m = make_msg(1, Priority::high, 5, 3);
    const uint64_t bytes = lay_out(t.a.memory, kViTx, {m});
    auto ctl = [&](Node& n, host::ProcessContext& ctx, ControlWord w, uint32_t v) {
        n.bus.store(ctx, kNiuBase + n.niu.control_offset(w), le32_bytes(v));
        n.bus.flush(ctx);
    };
    t.spawn(t.b, "arm", [&](host::ProcessContext& ctx) {
        ctl(t.b, ctx, ControlWord::rx_dma_base_lo, uint32_t(kViRx));
        ctl(t.b, ctx, ControlWord::rx_dma_size, 4096);
    });
    t.spawn(t.a, "kick", [&](host::ProcessContext& ctx) {
        ctx.compute(Time::us(5));
        ctl(t.a, ctx, ControlWord::tx_dma_addr_lo, uint32_t(kViTx));
        ctl(t.a, ctx, ControlWord::tx_dma_bytes, uint32_t(bytes));
    });
    t.run();
    EXPECT_TRUE(same(read_back(t.b.memory, kViRx), m));
}

// --- RDMA ---

struct RdmaPair : Pair {
    void headers(bool random_up = false) {
        Header h;
        h.down_route = 1;
        h.random_up = random_up;
        h.payload_words = kMaxPayloadWords;
        a.niu.set_rdma_headers(h.pack(), 0xABCD0000);
    }
    std::vector<uint8_t> fill(uint64_t at, std::size_t n) {
        std::vector<uint8_t> v(n);
        for (std::size_t i = 0; i < n; ++i) v[i] = uint8_t(i * 13 + 1);
        a.memory.write(at, v);
        return v;
    }
};

TEST(StartxRdma, ABlockArrivesByteExactAndTheWindowCloses) {
    RdmaPair t;
    const auto data = t.fill(kViTx, 1000);  // 11 chunks of 88 B and one of 32 B
    t.headers();
    t.b.niu.rdma_open_window(kViRx, 1000, 0);
    t.a.niu.rdma_transmit(kViTx, 1000);
    EXPECT_TRUE(t.a.niu.status().rdma_tx_active);
    t.run();
    std::vector<uint8_t> got(1000);
    t.b.memory.read(kViRx, got);
    EXPECT_EQ(got, data);
    EXPECT_TRUE(t.b.niu.rdma_window_done());
    EXPECT_FALSE(t.b.niu.rdma_window_open());
    EXPECT_EQ(t.a.niu.counters().messages_injected[0], 12u);
    EXPECT_EQ(t.a.niu.counters().rdma_bytes_sent, 1000u);
    EXPECT_EQ(t.b.niu.counters().rdma_bytes_received, 1000u);
    // Nothing beyond the window was touched.
    std::array<uint8_t, 8> after{};
    t.b.memory.read(kViRx + 1000, after);
    EXPECT_EQ(after, (std::array<uint8_t, 8>{}));
}

TEST(StartxRdma, AOneWordTailIsPaddedAndThePaddingDropped) {
    RdmaPair t;
    const auto data = t.fill(kViTx, 92);  // 88 + 4
    t.headers();
    t.b.niu.rdma_open_window(kViRx, 92, 0);
    t.a.niu.rdma_transmit(kViTx, 92);
    t.run();
    std::vector<uint8_t> got(96);
    t.b.memory.read(kViRx, got);
    EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.begin() + 92), data);
    EXPECT_EQ(got[92] | got[93] | got[94] | got[95], 0);
}

TEST(StartxRdma, LowPriorityPioIsUnaffected) {
    RdmaPair t;
    t.fill(kViTx, 4096);
    t.headers();
    t.b.niu.rdma_open_window(kViRx, 4096, 0);
    t.a.niu.rdma_transmit(kViTx, 4096);
    const Message low = make_msg(1, Priority::low, 4, 8);
    Message got;
    t.spawn(t.a, "low", [&](host::ProcessContext& ctx) { pio_send(ctx, t.a, low); });
    t.spawn(t.b, "recv", [&](host::ProcessContext& ctx) { got = pio_recv(ctx, t.b, Priority::low); });
    t.run();
    EXPECT_TRUE(same(got, low));
    EXPECT_TRUE(t.b.niu.rdma_window_done());
}

TEST(StartxRdma, IntoAWindowTheReceiverDidNotOpenIsAnError) {
    RdmaPair t;
    t.fill(kViTx, 64);
    t.headers();
    t.a.niu.rdma_transmit(kViTx, 64);
    t.run();
    // The receiver stops; the stream waits in the network, nothing lands in its memory.
    EXPECT_NE(t.b.niu.fault().find("opened no RDMA window"), std::string::npos) << t.b.niu.fault();
    EXPECT_EQ(t.b.niu.rdma_received(), 0u);
    EXPECT_FALSE(t.a.niu.faulted());
}

TEST(StartxRdma, IntoAWindowOpenedForAnotherSenderIsAnError) {
    RdmaPair t;
    t.fill(kViTx, 64);
    t.headers();
    t.b.niu.rdma_open_window(kViRx, 64, 7);
    t.a.niu.rdma_transmit(kViTx, 64);
    t.run();
    EXPECT_NE(t.b.niu.fault().find("opened for node 7"), std::string::npos) << t.b.niu.fault();
    EXPECT_EQ(t.b.niu.rdma_received(), 0u);
}

TEST(StartxRdma, RandomUpRouteIsRefused) {
    RdmaPair t;
    t.headers(true);
    EXPECT_THROW(t.a.niu.rdma_transmit(kViTx, 64), RdmaError);
}

TEST(StartxRdma, OtherHighPriorityModesCannotCoexist) {
    {
        RdmaPair t;  // sender: VI transmit or a second RDMA while RDMA is active
        t.fill(kViTx, 4096);
        t.headers();
        t.b.niu.rdma_open_window(kViRx, 4096, 0);
        t.a.niu.rdma_transmit(kViTx, 4096);
        EXPECT_THROW(t.a.niu.vi_transmit(kViTx, 64), RdmaError);
        EXPECT_THROW(t.a.niu.rdma_transmit(kViTx, 64), RdmaError);
        // receiver: VI receive while the window is open, a second window
        EXPECT_THROW(t.b.niu.vi_arm_receive(0x400000, 4096), RdmaError);
        EXPECT_THROW(t.b.niu.rdma_open_window(0x400000, 64, 0), RdmaError);
    }
    {
        RdmaPair t;  // sender: a PIO high-priority message while RDMA is active
        t.fill(kViTx, 4096);
        t.headers();
        t.b.niu.rdma_open_window(kViRx, 4096, 0);
        t.a.niu.rdma_transmit(kViTx, 4096);
        t.spawn(t.a, "pio", [&](host::ProcessContext& ctx) { pio_send(ctx, t.a, make_msg(1, Priority::high, 2, 1)); });
        t.run();
        EXPECT_NE(t.a.niu.fault().find("RDMA"), std::string::npos) << t.a.niu.fault();
    }
    {
        RdmaPair t;  // receiver: a PIO high-priority message arrives into an open window
        t.b.niu.rdma_open_window(kViRx, 4096, 0);
        t.spawn(t.a, "pio", [&](host::ProcessContext& ctx) { pio_send(ctx, t.a, make_msg(1, Priority::high, 2, 1)); });
        t.run();
        EXPECT_NE(t.b.niu.fault().find("while an RDMA window is open"), std::string::npos) << t.b.niu.fault();
    }
}

TEST(StartxRdma, ExchangeIsSlowerPerDirectionThanOneWayThroughPciContention) {
    constexpr uint64_t n = 64 * 1024;
    auto one_way = [&] {
        RdmaPair t;
        t.fill(kViTx, n);
        t.headers();
        t.b.niu.rdma_open_window(kViRx, n, 0);
        t.a.niu.rdma_transmit(kViTx, n);
        t.run();
        EXPECT_TRUE(t.b.niu.rdma_window_done());
        return t.k.now();
    };
    auto exchange = [&] {
        RdmaPair t;
        t.fill(kViTx, n);
        t.b.memory.write(kViTx, std::vector<uint8_t>(n, 5));
        t.headers();
        Header h;
        h.down_route = 0;
        h.payload_words = kMaxPayloadWords;
        t.b.niu.set_rdma_headers(h.pack(), 0);
        t.a.niu.rdma_open_window(kViRx, n, 1);
        t.b.niu.rdma_open_window(kViRx, n, 0);
        t.a.niu.rdma_transmit(kViTx, n);
        t.b.niu.rdma_transmit(kViTx, n);
        t.run();
        EXPECT_TRUE(t.a.niu.rdma_window_done());
        EXPECT_TRUE(t.b.niu.rdma_window_done());
        return t.k.now();
    };
    const Time single = one_way(), both = exchange();
    // Each node's PCI bus carries its TX and RX DMA at once: the exchange takes longer.
    EXPECT_GT(both.ps(), single.ps() * 12 / 10);
}

}  // namespace
}  // namespace niclab::startx::test
