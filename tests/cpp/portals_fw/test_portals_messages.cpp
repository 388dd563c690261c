// Messages through the C Portals firmware (seed 000 §4.3.1-4.3.2), driven by the
// protocol harness: header + payload of every size class at odd host addresses with
// every byte checked, on a direct cable and corner to corner across a 4x4x4 mesh;
// non-contiguous (SEG) buffers on both sides; long streams that overrun the TX FIFO;
// and several senders interleaving at one receiver.
#include <gtest/gtest.h>

#include <set>

#include "portals_harness.hpp"

namespace niclab::test {
namespace {

using ptl::Incoming;
using ptl::NodeScript;
using ptl::Outgoing;
using ptl::Placement;
using ptl::Seg;

constexpr uint64_t kSrcBase = 0x1000003;   // odd on purpose
constexpr uint64_t kDstBase = 0x8000005;
constexpr uint32_t kGuard = 16;

struct Traffic {
    std::vector<uint32_t> lengths;
    std::vector<uint64_t> src_addr, dst_addr;
    std::vector<std::vector<uint8_t>> payload;
};

// One message per length from `src` to `dst`, each in its own buffer (odd addresses),
// receive buffers filled with 0xEE so a byte written past the end shows.
Traffic prepare(system::System& sys, uint32_t src, uint32_t dst, const std::vector<uint32_t>& lengths) {
    Traffic t;
    t.lengths = lengths;
    uint64_t s = kSrcBase, d = kDstBase;
    for (size_t i = 0; i < lengths.size(); ++i) {
        t.src_addr.push_back(s);
        t.dst_addr.push_back(d);
        t.payload.push_back(ptl::put_pattern(sys, src, s, lengths[i], uint32_t(i + 1)));
        sys.host_memory(dst).fill(d, 0xEE, uint64_t(lengths[i]) + kGuard);
        uint64_t stride = (uint64_t(lengths[i]) + kGuard + 0x1000) & ~uint64_t(0xFFF);
        s += stride + 2;
        d += stride + 6;
    }
    return t;
}

void check_delivery(system::System& sys, uint32_t dst, const Traffic& t, const NodeScript& rx) {
    ASSERT_EQ(rx.received.size(), t.lengths.size());
    for (const Incoming& in : rx.received) {
        uint32_t i = in.hdr.match_bits_lo;
        ASSERT_LT(i, t.lengths.size());
        EXPECT_EQ(in.msg_bytes, PTL_HDR_BYTES + t.lengths[i]) << "message " << i;
        EXPECT_EQ(in.status, NICLAB_DMA_OK) << "message " << i;
        EXPECT_EQ(in.bytes, t.lengths[i]) << "message " << i;
        auto got = ptl::read(sys, dst, t.dst_addr[i], uint64_t(t.lengths[i]) + kGuard);
        EXPECT_TRUE(std::equal(t.payload[i].begin(), t.payload[i].end(), got.begin()))
            << "payload of message " << i << " (" << t.lengths[i] << " bytes) differs";
        for (uint32_t k = 0; k < kGuard; ++k)
            ASSERT_EQ(got[t.lengths[i] + k], 0xEE) << "written past the buffer of message " << i;
    }
}

void send_and_check(system::System& sys, uint32_t src, uint32_t dst, const std::vector<uint32_t>& lengths) {
    Traffic t = prepare(sys, src, dst, lengths);
    NodeScript tx, rx;
    for (uint32_t i = 0; i < lengths.size(); ++i) tx.sends.push_back({dst, i, t.src_addr[i], lengths[i], {}, {}});
    rx.expect_rx = uint32_t(lengths.size());
    rx.place = [&](const Incoming& in) {
        uint32_t i = in.hdr.match_bits_lo;
        return Placement{t.dst_addr.at(i), t.lengths.at(i), {}};
    };
    auto r = ptl::run(sys, {{src, &tx}, {dst, &rx}});
    EXPECT_TRUE(r.result.faulted_nodes.empty()) << (sys.nic(dst).fault() ? sys.nic(dst).fault()->what() : "");
    ASSERT_TRUE(tx.finished && rx.finished);
    ASSERT_EQ(tx.tx_done.size(), lengths.size());
    for (size_t k = 0; k < tx.tx_done.size(); ++k) {
        EXPECT_EQ(tx.tx_done[k].word2, NICLAB_DMA_OK);
        EXPECT_EQ(tx.tx_done[k].word3, lengths[k]) << "TX_DONE " << k << " counts payload bytes";
    }
    check_delivery(sys, dst, t, rx);
    // Header copied into the upper pending: the sender's node id and the length.
    for (const Incoming& in : rx.received) {
        EXPECT_EQ(in.hdr.src_nid, src);
        EXPECT_EQ(in.src, src);
        EXPECT_EQ(in.hdr.type, PTL_MSG_PUT);
    }
}

const std::vector<uint32_t> kSizes = {0, 1, 12, 13, 63, 64, 65, 127, 1000, 4096, 65537, (1u << 20) + 3, 8u << 20};

TEST(PortalsMessages, EverySizeDirectCable) {
    system::System sys(ptl::spec(2));
    send_and_check(sys, 0, 1, kSizes);
}

TEST(PortalsMessages, BothDirectionsAtOnce) {
    system::System sys(ptl::spec(2));
    Traffic a = prepare(sys, 0, 1, {5000, 77, 300000});
    NodeScript n0, n1;
    // n1 sends from a different region so the two directions do not share buffers.
    std::vector<std::vector<uint8_t>> back;
    for (uint32_t i = 0; i < 3; ++i) {
        n0.sends.push_back({1, i, a.src_addr[i], a.lengths[i], {}, {}});
        back.push_back(ptl::put_pattern(sys, 1, 0x20000001 + i * 0x100000, 9000 + i, 100 + i));
        n1.sends.push_back({0, i, 0x20000001 + i * 0x100000, 9000 + i, {}, {}});
    }
    n0.expect_rx = n1.expect_rx = 3;
    n1.place = [&](const Incoming& in) { return Placement{a.dst_addr.at(in.hdr.match_bits_lo), in.hdr.length, {}}; };
    n0.place = [&](const Incoming& in) { return Placement{0x30000003 + in.hdr.match_bits_lo * 0x100000, in.hdr.length, {}}; };
    ptl::run(sys, {{0, &n0}, {1, &n1}});
    ASSERT_TRUE(n0.finished && n1.finished);
    check_delivery(sys, 1, a, n1);
    for (uint32_t i = 0; i < 3; ++i)
        EXPECT_EQ(ptl::read(sys, 0, 0x30000003 + i * 0x100000, 9000 + i), back[i]) << "message " << i << " to node 0";
}

TEST(PortalsMessages, MeshCornerToCorner) {
    system::System sys(ptl::spec(64, "portals", {{"kind", "mesh"}, {"dims", {4, 4, 4}}}));
    send_and_check(sys, 0, 63, {0, 13, 4096, 200001});
}

TEST(PortalsMessages, SegmentListsOnBothSides) {
    system::System sys(ptl::spec(2));
    // The sender's payload in 5 scattered regions, the receiver's buffer in 7 others
    // of different sizes; the bytes must come out in order.
    const std::vector<uint32_t> src_lens = {100, 1, 4096, 333, 20000};
    const std::vector<uint32_t> dst_lens = {7, 64, 65, 3000, 1, 20000, 1393};
    uint32_t total = 0;
    for (uint32_t l : src_lens) total += l;
    auto want = ptl::pattern(total, 42);
    std::vector<Seg> src_segs, dst_segs;
    uint32_t off = 0;
    for (size_t i = 0; i < src_lens.size(); ++i) {
        uint64_t a = 0x2000001 + i * 0x40003;
        sys.host_memory(0).write(a, {want.data() + off, src_lens[i]});
        src_segs.push_back({a, src_lens[i]});
        off += src_lens[i];
    }
    uint32_t dst_total = 0;
    for (size_t i = 0; i < dst_lens.size(); ++i) {
        uint64_t a = 0x5000003 + i * 0x30007;
        sys.host_memory(1).fill(a, 0xEE, dst_lens[i] + kGuard);
        dst_segs.push_back({a, dst_lens[i]});
        dst_total += dst_lens[i];
    }
    ASSERT_EQ(dst_total, total);
    NodeScript tx, rx;
    tx.sends.push_back({1, 0, 0, 0, src_segs, {}});
    rx.expect_rx = 1;
    rx.place = [&](const Incoming&) { return Placement{0, 0, dst_segs}; };
    ptl::run(sys, {{0, &tx}, {1, &rx}});
    ASSERT_TRUE(tx.finished && rx.finished);
    EXPECT_EQ(tx.tx_done.at(0).word3, total);
    ASSERT_EQ(rx.received.size(), 1u);
    EXPECT_EQ(rx.received[0].msg_bytes, PTL_HDR_BYTES + total);
    EXPECT_EQ(rx.received[0].status, NICLAB_DMA_OK);
    EXPECT_EQ(rx.received[0].bytes, total);
    std::vector<uint8_t> got;
    for (const Seg& g : dst_segs) {
        auto part = ptl::read(sys, 1, g.addr, g.length + kGuard);
        got.insert(got.end(), part.begin(), part.begin() + g.length);
    }
    EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << "scattered bytes out of order";
    for (const Seg& g : dst_segs)  // nothing written past a region
        for (uint32_t k = 0; k < kGuard; ++k) ASSERT_EQ(ptl::read(sys, 1, g.addr + g.length + k, 1)[0], 0xEE);
}

TEST(PortalsMessages, SegmentListExactFit) {
    system::System sys(ptl::spec(2));
    auto want = ptl::put_pattern(sys, 0, 0x1000001, 10000, 9);
    std::vector<Seg> dst_segs = {{0x6000001, 2500}, {0x6100002, 2500}, {0x6200003, 2500}, {0x6300004, 2500}};
    NodeScript tx, rx;
    tx.sends.push_back({1, 0, 0x1000001, 10000, {}, {}});
    rx.expect_rx = 1;
    rx.place = [&](const Incoming&) { return Placement{0, 0, dst_segs}; };
    ptl::run(sys, {{0, &tx}, {1, &rx}});
    ASSERT_TRUE(rx.finished);
    EXPECT_EQ(rx.received.at(0).status, NICLAB_DMA_OK);
    EXPECT_EQ(rx.received.at(0).bytes, 10000u);
    std::vector<uint8_t> got;
    for (const Seg& g : dst_segs) {
        auto part = ptl::read(sys, 1, g.addr, g.length);
        got.insert(got.end(), part.begin(), part.end());
    }
    EXPECT_EQ(got, want);
}

TEST(PortalsMessages, StreamOverrunsTheTxFifoAndCompletesInOrder) {
    system::System sys(ptl::spec(2));
    std::vector<uint32_t> lengths(120, 3000);
    Traffic t = prepare(sys, 0, 1, lengths);
    NodeScript tx, rx;
    for (uint32_t i = 0; i < lengths.size(); ++i) tx.sends.push_back({1, i, t.src_addr[i], lengths[i], {}, {}});
    rx.expect_rx = uint32_t(lengths.size());
    rx.place = [&](const Incoming& in) { return Placement{t.dst_addr.at(in.hdr.match_bits_lo), 3000, {}}; };
    auto r = ptl::run(sys, {{0, &tx}, {1, &rx}});
    ASSERT_TRUE(tx.finished && rx.finished);
    check_delivery(sys, 1, t, rx);
    // TX completions in command order: ids were handed out 0, 1, 2, ... from the pool.
    for (size_t k = 0; k < tx.tx_done.size(); ++k) EXPECT_EQ(tx.tx_done[k].id, k) << "completion " << k;
    // Receptions in send order too (one path, one source list).
    for (size_t k = 0; k < rx.received.size(); ++k) EXPECT_EQ(rx.received[k].hdr.match_bits_lo, k);
    EXPECT_GT(r.hosts[0]->niccb(ptl::kTxFifoYields), 0u) << "120 messages of 2 commands must fill a 64-entry FIFO";
    EXPECT_EQ(r.hosts[0]->niccb(ptl::kTxMessages), 120u);
}

TEST(PortalsMessages, SeveralSourcesInterleaveAtOneNode) {
    system::System sys(ptl::spec(6, "portals", {{"kind", "mesh"}, {"dims", {3, 2, 1}}}));
    constexpr uint32_t kPer = 3, kLen = 40000;
    std::map<uint32_t, NodeScript> senders;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint8_t>> want;
    for (uint32_t s = 1; s < 6; ++s)
        for (uint32_t k = 0; k < kPer; ++k) {
            uint64_t a = 0x1000001 + k * 0x20000;
            want[{s, k}] = ptl::put_pattern(sys, s, a, kLen, s * 10 + k);
            senders[s].sends.push_back({0, s * 100 + k, a, kLen, {}, {}});
        }
    NodeScript rx;
    rx.expect_rx = 5 * kPer;
    auto dst_of = [](uint32_t tag) { return 0x4000003 + uint64_t(tag) * 0x10000; };
    rx.place = [&](const Incoming& in) { return Placement{dst_of(in.hdr.match_bits_lo), kLen, {}}; };
    std::map<uint32_t, NodeScript*> scripts{{0, &rx}};
    for (auto& [n, s] : senders) scripts[n] = &s;
    auto r = ptl::run(sys, scripts);
    ASSERT_TRUE(rx.finished);
    ASSERT_EQ(rx.received.size(), 5 * kPer);
    std::map<uint32_t, uint32_t> next_k;
    std::set<uint32_t> order;
    bool interleaved = false;
    uint32_t last_src = ~0u;
    for (const Incoming& in : rx.received) {
        uint32_t s = in.hdr.match_bits_lo / 100, k = in.hdr.match_bits_lo % 100;
        EXPECT_EQ(in.src, s);
        EXPECT_EQ(k, next_k[s]++) << "messages from node " << s << " out of order";
        EXPECT_EQ(in.status, NICLAB_DMA_OK);
        EXPECT_EQ(ptl::read(sys, 0, dst_of(in.hdr.match_bits_lo), kLen), (want[{s, k}])) << "from " << s << " #" << k;
        if (last_src != ~0u && s != last_src && next_k[last_src] < kPer) interleaved = true;
        last_src = s;
    }
    EXPECT_TRUE(interleaved) << "the senders' messages should interleave at the receiver";
    EXPECT_EQ(r.hosts[0]->niccb(ptl::kSourcesInUseMax), 5u) << "one source structure per sender";
    EXPECT_EQ(r.hosts[0]->niccb(ptl::kSourcesInUse), 0u) << "all released";
}

}  // namespace
}  // namespace niclab::test
