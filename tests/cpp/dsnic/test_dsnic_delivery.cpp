// Messages arrive byte for byte at every packet size, including lengths that are not
// whole packets: flush pads every received packet to the full size (seed 003 L600),
// and that padding must stay in the receive buffer's slack, never in the message and
// never beyond the buffer. A bad packet size is a ConfigError naming the key.
#include "dsnic_test_support.hpp"

#include "niclab/system/config_error.hpp"

namespace niclab::dsnic {
namespace {

using namespace test;

void send_and_check(uint32_t packet, const std::vector<uint64_t>& lengths) {
    system::System sys(spec(packet));
    uint64_t max = 0;
    for (uint64_t n : lengths) max = std::max(max, n);
    const uint64_t rounded = std::max<uint64_t>(1, (max + packet - 1) / packet) * packet;
    // Guard bytes after the receive buffer: no DMA may touch them.
    sys.host_memory(1).fill(kRecv + rounded, kGuard, 4096);
    niclab::test::TestProcesses procs;
    size_t got = 0;
    procs.spawn(sys.host_cpu(0), "sender", [&](host::ProcessContext& ctx) {
        auto ch = CspChannel::open(ctx, driver(sys, 0), 0, 1, kRecv, max);
        for (uint32_t k = 0; k < lengths.size(); ++k) {
            const auto b = payload(lengths[k], k);
            sys.host_memory(0).write(kSend, b);
            ch.send(ctx, kSend, lengths[k]);  // blocking: the buffer may be reused after
        }
    });
    procs.spawn(sys.host_cpu(1), "receiver", [&](host::ProcessContext& ctx) {
        auto ch = CspChannel::open(ctx, driver(sys, 1), 0, 0, kRecv, max);
        EXPECT_EQ(ch.rx_capacity(), rounded);
        for (uint32_t k = 0; k < lengths.size(); ++k) {
            const Message m = ch.recv(ctx);
            ASSERT_EQ(m.bytes, lengths[k]) << "message " << k << ", packet size " << packet;
            ASSERT_EQ(read(sys, 1, kRecv, m.bytes), payload(m.bytes, k)) << "message " << k << " of " << m.bytes << " B, packet size " << packet;
            ++got;
        }
    });
    sys.run_for(Time::ms(200));
    procs.rethrow_failures();
    EXPECT_EQ(got, lengths.size());
    EXPECT_EQ(read(sys, 1, kRecv + rounded, 4096), std::vector<uint8_t>(4096, kGuard)) << "padding went past the buffer";
    // Every received packet crossed PCI as a full packet (flush).
    const auto& c = board(sys, 1).counters();
    EXPECT_EQ(c.rx_dma_bytes, c.packets_received * packet);
    uint64_t data = 0;
    for (uint64_t n : lengths) data += n;
    EXPECT_EQ(c.rx_dma_bytes - c.padding_bytes, data);
}

const std::vector<uint64_t> kOdd = {1, 7, 0, 8, 9, 63, 64, 65, 100, 511, 513, 4095, 4096, 4097, 10000, 3};

TEST(DsnicDelivery, ByteExactWithEightBytePackets) { send_and_check(8, kOdd); }
TEST(DsnicDelivery, ByteExactWith64BytePackets) { send_and_check(64, kOdd); }
TEST(DsnicDelivery, ByteExactWith4096BytePackets) { send_and_check(4096, kOdd); }

TEST(DsnicDelivery, PaddingOfAShortLastPacketStaysInTheSlack) {
    // One 5-byte message into a 4096-byte packet: 4091 bytes of padding, all in the slot.
    system::System sys(spec(4096));
    sys.host_memory(1).fill(kRecv, 0x11, 8192);
    niclab::test::TestProcesses procs;
    procs.spawn(sys.host_cpu(0), "sender", [&](host::ProcessContext& ctx) {
        auto ch = CspChannel::open(ctx, driver(sys, 0), 0, 1, kRecv, 5);
        sys.host_memory(0).write(kSend, payload(5, 0));
        ch.send(ctx, kSend, 5);
    });
    procs.spawn(sys.host_cpu(1), "receiver", [&](host::ProcessContext& ctx) {
        auto ch = CspChannel::open(ctx, driver(sys, 1), 0, 0, kRecv, 5);
        EXPECT_EQ(ch.recv(ctx).bytes, 5u);
    });
    sys.run_for(Time::ms(10));
    procs.rethrow_failures();
    EXPECT_EQ(read(sys, 1, kRecv, 5), payload(5, 0));
    EXPECT_EQ(board(sys, 1).counters().padding_bytes, 4091u);
    EXPECT_EQ(read(sys, 1, kRecv + 4096, 4096), std::vector<uint8_t>(4096, 0x11));
}

TEST(DsnicConfig, PacketSizeMustBeAPowerOfTwoFrom8To4096) {
    for (int bad : {4, 100, 768, 8192}) {
        try {
            system::System sys(spec(uint32_t(bad)));
            ADD_FAILURE() << "packet size " << bad << " accepted";
        } catch (const system::ConfigError& e) {
            EXPECT_EQ(e.key_path(), "dsnic.packet_bytes") << bad;
            EXPECT_NE(std::string(e.what()).find("power"), std::string::npos) << e.what();
        }
    }
    for (int good : {8, 16, 1024, 4096}) EXPECT_NO_THROW(system::System sys(spec(uint32_t(good))));
}

TEST(DsnicConfig, AcknowledgementsMustComeWithinTheWindow) {
    try {
        system::System sys(spec(64, {{"dsnic.window_packets", 4}, {"dsnic.ack_every", 8}}));
        ADD_FAILURE() << "a window the acknowledgements never reach was accepted";
    } catch (const system::ConfigError& e) {
        EXPECT_EQ(e.key_path(), "dsnic.ack_every");
    }
}

}  // namespace
}  // namespace niclab::dsnic

namespace niclab::dsnic {
namespace {

using namespace test;

TEST(DsnicCsp, AltSelectsWhicheverChannelHasAMessage) {
    // Nodes 1 and 2 send to node 0 through one C104; node 0 selects between its two
    // channels with ALT and takes every message from both, byte for byte.
    system::System sys(system::SystemSpec::from_json({{"system", "dsnic"}, {"nodes", 3}, {"seed", 7}, {"set", {{"dsnic.packet_bytes", 64}}}}));
    constexpr uint32_t kEach = 5;
    niclab::test::TestProcesses procs;
    for (uint32_t src : {1u, 2u})
        procs.spawn(sys.host_cpu(src), "sender", [&, src](host::ProcessContext& ctx) {
            auto ch = CspChannel::open(ctx, driver(sys, src), 0, 0, kRecv, 4096);
            for (uint32_t k = 0; k < kEach; ++k) {
                const uint64_t n = 100 * src + 37 * k;
                sys.host_memory(src).write(kSend, payload(n, 10 * src + k));
                ch.send(ctx, kSend, n);
                ctx.compute(Time::us(40 * src));  // the two senders at different paces
            }
        });
    uint32_t got[3] = {0, 0, 0};
    std::vector<uint32_t> order;
    procs.spawn(sys.host_cpu(0), "selector", [&](host::ProcessContext& ctx) {
        auto a = CspChannel::open(ctx, driver(sys, 0), 0, 1, kRecv, 4096);
        auto b = CspChannel::open(ctx, driver(sys, 0), 0, 2, kRecv + 0x100000, 4096);
        CspChannel* chans[2] = {&a, &b};
        for (uint32_t i = 0; i < 2 * kEach; ++i) {
            const std::size_t which = CspChannel::alt(ctx, driver(sys, 0), chans);
            ASSERT_LT(which, 2u);
            CspChannel& ch = *chans[which];
            const uint32_t src = ch.peer(), k = got[src];
            const Message m = ch.recv(ctx);
            ASSERT_EQ(m.bytes, 100 * src + 37 * k);
            ASSERT_EQ(read(sys, 0, ch.rx_addr(), m.bytes), payload(m.bytes, 10 * src + k)) << "from node " << src << ", message " << k;
            ++got[src];
            order.push_back(src);
        }
    });
    sys.run_for(Time::ms(50));
    procs.rethrow_failures();
    EXPECT_EQ(got[1], kEach);
    EXPECT_EQ(got[2], kEach);
    // Interleaved: the faster sender's messages do not all come first or last.
    EXPECT_NE(order.front(), order.back());
}

}  // namespace
}  // namespace niclab::dsnic

namespace niclab::dsnic {
namespace {

using namespace test;

TEST(DsnicCsp, BufferedSendsCopySoTheSenderMayReuseItsBufferAtOnce) {
    // Asynchronous buffered sends (seed 003 L526): each returns once the message is in
    // the kernel buffer; the sender overwrites its one buffer with the next message at
    // once, and still every message arrives as it was when sent.
    system::System sys(spec(64, {{"dsnic.async_buffer_bytes", 4096}}));
    constexpr uint32_t kCount = 8;
    const uint64_t n = 1500;  // two fit the 4 KB kernel buffer at a time
    niclab::test::TestProcesses procs;
    uint32_t got = 0;
    Time last_send;
    procs.spawn(sys.host_cpu(0), "sender", [&](host::ProcessContext& ctx) {
        auto ch = CspChannel::open(ctx, driver(sys, 0), 0, 1, kRecv, n);
        for (uint32_t k = 0; k < kCount; ++k) {
            sys.host_memory(0).write(kSend, payload(n, k));
            ch.bsend(ctx, kSend, n);
        }
        last_send = ctx.now();
        EXPECT_THROW(ch.bsend(ctx, kSend, 4097), DsnicError);  // never fits
        ch.wait(ctx);
    });
    Time first_recv;
    procs.spawn(sys.host_cpu(1), "receiver", [&](host::ProcessContext& ctx) {
        auto ch = CspChannel::open(ctx, driver(sys, 1), 0, 0, kRecv, n);
        for (uint32_t k = 0; k < kCount; ++k) {
            const Message m = ch.recv(ctx);
            if (k == 0) first_recv = ctx.now();
            ASSERT_EQ(m.bytes, n);
            ASSERT_EQ(read(sys, 1, kRecv, n), payload(n, k)) << "message " << k;
            ++got;
        }
    });
    sys.run_for(Time::ms(50));
    procs.rethrow_failures();
    EXPECT_EQ(got, kCount);
    EXPECT_GT(last_send, first_recv);  // the kernel buffer filled: later sends waited for room
}

}  // namespace
}  // namespace niclab::dsnic
