// The header first (seed 003 §7.1 L598-600): comin passes a packet's header to the
// mailbox as soon as it is across the link, the driver sets up the receive DMA on it
// while the data is still coming, and the DMA streams the data and ends just after the
// tail (flush's padding behind it), not a whole packet's DMA later.
#include "dsnic_test_support.hpp"

namespace niclab::dsnic {
namespace {

using namespace test;

// Between the network and node 1's C101: passes heads and tails on, noting when they
// came and whether the receive DMA was already set up when the tail came.
struct Watch final : net::NetworkEndpoint {
    Watch(C101& c101, Board& board, sim::Kernel& k) : c101(c101), board(board), k(k) {}
    bool wants_heads() const override { return true; }
    bool head_arrived(const net::PacketView& p, Time tail_at) override {
        if (!c101.head_arrived(p, tail_at)) return false;
        if (Protocol::decode(p.message_id).is_data()) head = k.now();
        return true;
    }
    bool deliver(const net::PacketView& p) override {
        if (Protocol::decode(p.message_id).is_data()) {
            tail = k.now();
            dma_before_tail = board.rx_busy();
        }
        return c101.deliver(p);
    }
    C101& c101;
    Board& board;
    sim::Kernel& k;
    Time head{}, tail{};
    bool dma_before_tail = false;
};

TEST(DsnicHead, TheReceiveDmaIsSetUpOnTheHeaderAndEndsJustAfterTheTail) {
    // One 4096-byte message in one 4096-byte packet: 410 us on the link.
    system::System sys(spec(4096));
    Watch watch(board(sys, 1).c101(), board(sys, 1), sys.kernel());
    sys.network()->attach(1, &watch);
    const auto data = payload(4096, 3);
    niclab::test::TestProcesses procs;
    Time received{};
    procs.spawn(sys.host_cpu(0), "sender", [&](host::ProcessContext& ctx) {
        auto ch = CspChannel::open(ctx, driver(sys, 0), 0, 1, kRecv, 4096);
        sys.host_memory(0).write(kSend, data);
        ch.send(ctx, kSend, 4096);
    });
    procs.spawn(sys.host_cpu(1), "receiver", [&](host::ProcessContext& ctx) {
        auto ch = CspChannel::open(ctx, driver(sys, 1), 0, 0, kRecv, 4096);
        const Message m = ch.recv(ctx);
        received = ctx.now();
        EXPECT_EQ(m.bytes, 4096u);
        EXPECT_EQ(read(sys, 1, kRecv, 4096), data);
    });
    sys.run_for(Time::ms(3));
    procs.rethrow_failures();
    sys.network()->attach(1, &board(sys, 1).c101());
    ASSERT_GT(received, Time{});
    // 4096 data characters and the end token after the 5 header characters.
    EXPECT_EQ(watch.tail - watch.head, Time::ns(4096 * 100 + 40));
    EXPECT_TRUE(watch.dma_before_tail) << "the DMA waited for the tail (store-and-forward)";
    // A 4 KB DMA alone takes ~45 us on the 33 MHz PCI; streamed, only its last burst,
    // the interrupt and the wake-up follow the tail.
    EXPECT_LT(received - watch.tail, Time::us(25));
    EXPECT_EQ(board(sys, 1).counters().padding_bytes, 0u);
}

// A 1-byte message in a 4096-byte packet: the tail is in 0.6 us after the header, and
// flush's 4095 bytes of padding all follow it, so the DMA ends a whole block after the
// tail (seed 003 L656-658: larger packets, higher 1-byte latency).
TEST(DsnicHead, FlushPaddingFollowsTheTail) {
    system::System sys(spec(4096));
    Watch watch(board(sys, 1).c101(), board(sys, 1), sys.kernel());
    sys.network()->attach(1, &watch);
    niclab::test::TestProcesses procs;
    Time received{};
    procs.spawn(sys.host_cpu(0), "sender", [&](host::ProcessContext& ctx) {
        auto ch = CspChannel::open(ctx, driver(sys, 0), 0, 1, kRecv, 1);
        sys.host_memory(0).write(kSend, payload(1, 1));
        ch.send(ctx, kSend, 1);
    });
    procs.spawn(sys.host_cpu(1), "receiver", [&](host::ProcessContext& ctx) {
        auto ch = CspChannel::open(ctx, driver(sys, 1), 0, 0, kRecv, 1);
        ch.recv(ctx);
        received = ctx.now();
        EXPECT_EQ(read(sys, 1, kRecv, 1), payload(1, 1));
    });
    sys.run_for(Time::ms(3));
    procs.rethrow_failures();
    sys.network()->attach(1, &board(sys, 1).c101());
    ASSERT_GT(received, Time{});
    EXPECT_EQ(watch.tail - watch.head, Time::ns(100 + 40));
    EXPECT_EQ(board(sys, 1).counters().padding_bytes, 4095u);
    EXPECT_GT(received - watch.tail, Time::us(40));  // 128 bursts of 32 bytes at 33 MHz
}

}  // namespace
}  // namespace niclab::dsnic
