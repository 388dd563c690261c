// Go-back-N on resource exhaustion (seed 000 §4.3.3, firmware/portals/gbn.h): with
// pools too small for the traffic the receiver drops, NACKs and takes the
// retransmissions; every message arrives exactly once, in order per sender, with its
// bytes, and every send completes. portals_tiny has 4 sources, 4 TX and 8 RX pendings,
// so 8 senders at once cannot all be taken: exhaustion is certain, not hoped for.
#include <gtest/gtest.h>

#include <functional>

#include "portals_harness.hpp"

namespace niclab::test {
namespace {

using ptl::Incoming;
using ptl::NodeScript;

constexpr uint32_t kSenders = 8;
constexpr uint32_t kMessages = 12;        // per sender: 3 times its TX pool
constexpr uint32_t kBytes = 300;          // 5 packets (with the header): deposits take a while
constexpr uint64_t kSendBase = 0x100000;  // sender: message i at kSendBase + i * kStride
constexpr uint64_t kRecvBase = 0x400000;  // receiver: (sender, i) at its own place
constexpr uint64_t kStride = 0x1000;

uint32_t tag(uint32_t sender, uint32_t i) { return (sender << 16) | i; }
uint64_t recv_addr(uint32_t t) { return kRecvBase + ((t >> 16) * kMessages + (t & 0xFFFF)) * kStride; }

struct Outcome {
    std::vector<std::tuple<uint32_t, uint32_t, int64_t>> arrivals;  // (src, tag, announced ps) in order
    std::vector<uint32_t> receiver_niccb, sender_niccb_sum;
    bool all_finished = false, payloads_ok = false;
    std::string detail;
};

Outcome incast(const std::string& image, const std::function<void(system::System&)>& after_boot = {}) {
    system::System sys(ptl::spec(kSenders + 1, image));
    if (after_boot) after_boot(sys);
    std::map<uint32_t, NodeScript> senders;
    std::map<uint32_t, std::vector<std::vector<uint8_t>>> sent;
    NodeScript rx;
    rx.expect_rx = kSenders * kMessages;
    rx.place = [](const Incoming& in) { return ptl::Placement{recv_addr(in.hdr.match_bits_lo), kBytes, {}}; };
    std::map<uint32_t, NodeScript*> scripts{{0, &rx}};
    for (uint32_t s = 1; s <= kSenders; ++s) {
        for (uint32_t i = 0; i < kMessages; ++i) {
            uint64_t a = kSendBase + i * kStride;
            sent[s].push_back(ptl::put_pattern(sys, s, a, kBytes, tag(s, i)));
            senders[s].sends.push_back({0, tag(s, i), a, kBytes, {}, {}});
        }
        scripts[s] = &senders[s];
    }
    auto r = ptl::run(sys, scripts);
    Outcome o;
    o.all_finished = r.result.faulted_nodes.empty() && rx.finished;
    for (auto& [s, script] : senders) o.all_finished = o.all_finished && script.finished;
    o.payloads_ok = true;
    for (const Incoming& in : rx.received) {
        uint32_t t = in.hdr.match_bits_lo;
        o.arrivals.emplace_back(in.src, t, in.announced.ps());
        if (in.status != NICLAB_DMA_OK || in.bytes != kBytes ||
            ptl::read(sys, 0, recv_addr(t), kBytes) != sent.at(t >> 16).at(t & 0xFFFF)) {
            o.payloads_ok = false;
            o.detail += "bad payload for tag " + std::to_string(t) + "\n";
        }
    }
    for (uint32_t w = 0; w <= ptl::kRetransmits; ++w) o.receiver_niccb.push_back(r.hosts[0]->niccb(w));
    o.sender_niccb_sum.assign(ptl::kRetransmits + 1, 0);
    for (size_t h = 1; h < r.hosts.size(); ++h)
        for (uint32_t w = 0; w <= ptl::kRetransmits; ++w) o.sender_niccb_sum[w] += r.hosts[h]->niccb(w);
    return o;
}

TEST(PortalsGoBackN, IncastWithTinyPoolsDeliversEveryMessageOnceInOrder) {
    Outcome o = incast("portals_tiny");
    ASSERT_TRUE(o.all_finished) << "a node faulted or did not finish";
    EXPECT_TRUE(o.payloads_ok) << o.detail;

    // Exactly once, in order per sender: sender s's tags arrive as 0, 1, ..., kMessages-1.
    ASSERT_EQ(o.arrivals.size(), size_t(kSenders * kMessages));
    std::map<uint32_t, uint32_t> next;
    for (auto& [src, t, when] : o.arrivals) {
        EXPECT_EQ(src, t >> 16) << "the event's source is the sender";
        EXPECT_EQ(t & 0xFFFF, next[src]) << "from node " << src << ": out of order or duplicated";
        next[src] = (t & 0xFFFF) + 1;
    }
    for (uint32_t s = 1; s <= kSenders; ++s) EXPECT_EQ(next[s], kMessages) << "node " << s;

    // Exhaustion happened and go-back-N repaired it, as the counters tell.
    const auto& rc = o.receiver_niccb;
    const auto& sc = o.sender_niccb_sum;
    EXPECT_EQ(rc[ptl::kFeatures] & PTL_FW_FEAT_GO_BACK_N, PTL_FW_FEAT_GO_BACK_N);
    EXPECT_GT(rc[ptl::kRxDrops], 0u);
    EXPECT_GT(rc[ptl::kNacksSent], 0u);
    EXPECT_EQ(sc[ptl::kNacksReceived], rc[ptl::kNacksSent]) << "every NACK reached its sender";
    EXPECT_GT(sc[ptl::kRetransmits], 0u);
    EXPECT_EQ(sc[ptl::kAcksReceived], rc[ptl::kAcksSent]);
    // Every drop was retransmitted: taken headers = messages, and every drop is made
    // good by a retransmission (a retransmitted message may be dropped again).
    EXPECT_EQ(rc[ptl::kRxMessages], kSenders * kMessages);
    EXPECT_GE(sc[ptl::kRetransmits], rc[ptl::kRxDrops]);
    EXPECT_EQ(sc[ptl::kTxMessages], kSenders * kMessages) << "every send completed once";
    EXPECT_LE(rc[ptl::kRxInUseMax], 8u);
    EXPECT_LE(rc[ptl::kSourcesInUseMax], 4u);
    EXPECT_EQ(rc[ptl::kRxInUse], 0u);
    EXPECT_EQ(rc[ptl::kSourcesInUse], 0u);
    EXPECT_EQ(sc[ptl::kSourcesInUse], 0u) << "senders released every source once acknowledged";
}

TEST(PortalsGoBackN, IncastIsDeterministic) {
    Outcome a = incast("portals_tiny"), b = incast("portals_tiny");
    ASSERT_TRUE(a.all_finished && b.all_finished);
    EXPECT_EQ(a.arrivals, b.arrivals) << "same arrivals at the same times";
    EXPECT_EQ(a.receiver_niccb, b.receiver_niccb);
    EXPECT_EQ(a.sender_niccb_sum, b.sender_niccb_sum);
}

// Red Storm's image sets a peer's go-back-N entry up at its first message, not at boot
// (PTL_PEERS_LAZY): boot leaves the 166 KB table unwritten. Garbage in every entry after
// boot (SRAM a loader did not clear) must not matter: an entry is cleared before its
// first use, so the incast goes as on the production image; and boot wrote none of it.
TEST(PortalsGoBackN, RedStormsImageSetsAPeerUpAtItsFirstMessage) {
    constexpr uint32_t kPeers = 10368, kPeerBytes = 16;
    uint32_t untouched = 0;
    Outcome o = incast("portals_redstorm", [&](system::System& sys) {
        for (uint32_t n = 0; n <= kSenders; ++n) {
            nic::EmbeddedNic& nic = seastar::seastar_nic(sys, n).nic();
            uint32_t table = 0;
            ASSERT_TRUE(nic.image()->find_symbol("gbn_peers", table));
            for (uint32_t a = table; a < table + kPeers * kPeerBytes; a += 4) {
                untouched += nic.peek32(a) == 0;
                nic.poke32(a, 0xA5A5A5A5u);
            }
        }
    });
    EXPECT_EQ(untouched, (kSenders + 1) * kPeers * kPeerBytes / 4) << "boot wrote into the peer table";
    ASSERT_TRUE(o.all_finished) << "a node faulted or did not finish";
    EXPECT_TRUE(o.payloads_ok) << o.detail;
    ASSERT_EQ(o.arrivals.size(), size_t(kSenders * kMessages));
    std::map<uint32_t, uint32_t> next;
    for (auto& [src, t, when] : o.arrivals) EXPECT_EQ(t & 0xFFFF, next[src]++) << "from node " << src;
}

// A system larger than the production image's peer table (2,048 nodes) gets Red Storm's
// image when its spec names none (SystemModel::default_firmware), and its last node, past
// that table, exchanges messages with its neighbour both ways. On the production image
// that node panics at its first message, naming PTL_PEERS (tried).
TEST(PortalsGoBackN, ASystemPastTheProductionPeerTableGetsRedStormsImage) {
    constexpr uint32_t kNodes = 2049, kLast = kNodes - 1;
    EXPECT_EQ(seastar::model().default_firmware(kNodes - 1), "portals");
    const std::string image = seastar::model().default_firmware(kNodes);
    ASSERT_EQ(image, "portals_redstorm");
    system::System sys(ptl::spec(kNodes, image));  // a line: kLast's neighbour is kLast - 1
    NodeScript last, before;
    std::map<uint32_t, std::vector<uint8_t>> sent;  // by tag
    for (uint32_t i = 0; i < 2; ++i) {
        sent[tag(0, i)] = ptl::put_pattern(sys, kLast, kSendBase + i * kStride, kBytes, tag(0, i));
        last.sends.push_back({kLast - 1, tag(0, i), kSendBase + i * kStride, kBytes, {}, {}});
        sent[tag(1, i)] = ptl::put_pattern(sys, kLast - 1, kSendBase + i * kStride, kBytes, tag(1, i));
        before.sends.push_back({kLast, tag(1, i), kSendBase + i * kStride, kBytes, {}, {}});
    }
    // Each message lands at its own place (recv_addr by tag: node kLast's as sender 0's).
    auto place = [](const Incoming& in) { return ptl::Placement{recv_addr(in.hdr.match_bits_lo), kBytes, {}}; };
    last.expect_rx = before.expect_rx = 2;
    last.place = before.place = place;
    auto r = ptl::run(sys, {{kLast - 1, &before}, {kLast, &last}});
    ASSERT_TRUE(r.result.faulted_nodes.empty()) << ptl::faults(sys);
    ASSERT_TRUE(last.finished && before.finished);
    ASSERT_EQ(last.received.size() + before.received.size(), 4u);
    for (const auto& [node, script] : {std::pair{kLast, &last}, std::pair{kLast - 1, &before}})
        for (const Incoming& in : script->received) {
            const uint32_t t = in.hdr.match_bits_lo;
            EXPECT_EQ(in.src, node == kLast ? kLast - 1 : kLast);
            EXPECT_EQ(ptl::read(sys, node, recv_addr(t), kBytes), sent.at(t)) << "tag " << t;
        }
}

// Node 0 takes kEach 8 KB messages from each of `in` and sends kEach to each of `out`,
// on the tiny pools (4 sources): a deposit holds its source for microseconds. Checks
// that every message arrives once, in order, with its bytes; returns node 0's niccb.
std::vector<uint32_t> exchange(const std::vector<uint32_t>& in, const std::vector<uint32_t>& out) {
    constexpr uint32_t kEach = 6, kBig = 8192;
    constexpr uint64_t kBigStride = 0x4000;
    // Message `t` (tagged by its peer of node 0 and index; 0x8000 marks node 0's) has
    // its own place at both ends.
    auto slot = [&](uint32_t t) { return uint64_t(((t >> 16) & 0xF) * 2 * kEach + (t & 0xFFFF)) * kBigStride; };
    system::System sys(ptl::spec(kSenders + 1, "portals_tiny"));
    std::map<uint32_t, NodeScript> nodes;
    std::map<uint32_t, NodeScript*> scripts;
    std::map<uint32_t, std::vector<uint8_t>> sent;  // by tag
    auto send = [&](uint32_t from, uint32_t to, uint32_t t) {
        sent[t] = ptl::put_pattern(sys, from, kSendBase + slot(t), kBig, t);
        nodes[from].sends.push_back({to, t, kSendBase + slot(t), kBig, {}, {}});
    };
    for (uint32_t i = 0; i < kEach; ++i) {
        for (uint32_t p : in) send(p, 0, tag(p, i));
        for (uint32_t p : out) send(0, p, tag(p, kEach + i));
    }
    nodes[0].expect_rx = uint32_t(in.size()) * kEach;
    for (uint32_t p : out) nodes[p].expect_rx = kEach;
    for (auto& [n, script] : nodes) {
        script.place = [&](const Incoming& m) { return ptl::Placement{kRecvBase + slot(m.hdr.match_bits_lo), kBig, {}}; };
        scripts[n] = &script;
    }
    auto r = ptl::run(sys, scripts);
    EXPECT_TRUE(r.result.faulted_nodes.empty()) << "a node faulted";
    for (auto& [n, script] : nodes) {
        EXPECT_TRUE(script.finished) << "node " << n;
        std::map<uint32_t, uint32_t> next;  // by source: the next index expected
        for (const Incoming& m : script.received) {
            const uint32_t t = m.hdr.match_bits_lo;
            EXPECT_EQ((t & 0xFFFF) % kEach, next[m.src]++) << "node " << n << " from " << m.src << ": out of order or duplicated";
            EXPECT_EQ(ptl::read(sys, n, kRecvBase + slot(t), kBig), sent.at(t)) << "tag " << t;
        }
        EXPECT_EQ(script.received.size(), script.expect_rx) << "node " << n;
    }
    std::vector<uint32_t> cb;
    for (uint32_t w = 0; w <= ptl::kTxSourceWaits; ++w) cb.push_back(r.hosts[0]->niccb(w));
    return cb;
}

// Exhaustion on the sending side: node 0 takes messages from nodes 1-4 and sends to
// nodes 5-8, eight peers for its 4 sources. A transmit cannot be dropped and NACKed
// like an arriving message: it waits for a source, in command order (before, the
// firmware panicked).
TEST(PortalsGoBackN, TransmitsWaitForASourceWhileTheReceiverHoldsThem) {
    auto cb = exchange({1, 2, 3, 4}, {5, 6, 7, 8});
    EXPECT_GT(cb[ptl::kTxSourceWaits], 0u) << "node 0's transmits did wait for sources";
    EXPECT_EQ(cb[ptl::kSourcesInUse], 0u);
}

// Node 0 also sends to the eight nodes whose messages it drops. A NACK can then reach
// a sender while the message it names is still in the sender's TX FIFO: that message
// and those behind it leave after the NACK and are dropped too, so each goes again
// when it completes. Before, they waited for an acknowledgement that never came and
// the exchange stopped with messages undelivered.
TEST(PortalsGoBackN, MessagesInTheFifoWhenTheNackComesGoAgain) {
    auto cb = exchange({1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8});
    EXPECT_GT(cb[ptl::kNacksSent], 0u);
    EXPECT_EQ(cb[ptl::kSourcesInUse], 0u);
}

// A payload the TX engine cannot read (outside host memory) sends nothing, but the
// message already has its sequence number. It goes as a header-only PTL_MSG_FW_SKIP with
// that number, so the receiver's numbers stay whole and the messages behind it arrive;
// the host's TX_DONE reports the fault. (Before, the receiver waited for the lost
// number for ever and every later message to it was dropped.)
TEST(PortalsGoBackN, AnUnreadablePayloadIsSkippedAndTheStreamGoesOn) {
    constexpr uint32_t kGood = 4, kLen = 300;
    system::System sys(ptl::spec(2, "portals"));
    NodeScript tx, rx;
    std::vector<std::vector<uint8_t>> sent;
    tx.sends.push_back({1, tag(1, 0), uint64_t(1) << 44, kLen, {}, {}});  // far outside host memory
    for (uint32_t i = 1; i <= kGood; ++i) {
        const uint64_t a = kSendBase + i * kStride;
        sent.push_back(ptl::put_pattern(sys, 0, a, kLen, tag(1, i)));
        tx.sends.push_back({1, tag(1, i), a, kLen, {}, {}});
    }
    rx.expect_rx = kGood;
    rx.place = [](const Incoming& in) { return ptl::Placement{recv_addr(in.hdr.match_bits_lo), kLen, {}}; };
    std::map<uint32_t, NodeScript*> scripts{{0, &tx}, {1, &rx}};
    auto r = ptl::run(sys, scripts);
    ASSERT_TRUE(r.result.faulted_nodes.empty());
    EXPECT_TRUE(tx.finished && rx.finished);
    ASSERT_EQ(tx.tx_done.size(), size_t(kGood + 1));
    uint32_t faults = 0;
    for (const ptl::Event& e : tx.tx_done) faults += e.word2 == NICLAB_DMA_HOST_FAULT;
    EXPECT_EQ(faults, 1u) << "the one TX_DONE that reports the fault";
    ASSERT_EQ(rx.received.size(), size_t(kGood));
    for (uint32_t i = 0; i < kGood; ++i) {
        EXPECT_EQ(rx.received[i].hdr.match_bits_lo, tag(1, i + 1)) << "in order, after the skipped one";
        EXPECT_EQ(ptl::read(sys, 1, recv_addr(tag(1, i + 1)), kLen), sent[i]);
    }
    EXPECT_EQ(r.hosts[0]->niccb(ptl::kTxSkips), 1u);
    // The messages behind it were already in the FIFO and arrive first, a gap: the
    // receiver's NACK sends the skip again with them, and drops its duplicate.
    EXPECT_GE(r.hosts[1]->niccb(ptl::kSkipsReceived), 1u);
    EXPECT_EQ(r.hosts[0]->niccb(ptl::kSourcesInUse), 0u);
}

TEST(PortalsGoBackN, PanicImageStillPanicsOnTheSameIncast) {
    // PTL_EXHAUSTION=0 keeps the seed's behaviour: the receiver stops, naming the pool.
    system::System sys(ptl::spec(kSenders + 1, "portals_tiny_panic"));
    std::map<uint32_t, NodeScript> senders;
    NodeScript rx;
    rx.expect_rx = kSenders;
    std::map<uint32_t, NodeScript*> scripts{{0, &rx}};
    for (uint32_t s = 1; s <= kSenders; ++s) {
        senders[s].sends.push_back({0, tag(s, 0), kSendBase, kBytes, {}, {}});
        scripts[s] = &senders[s];
    }
    auto r = ptl::run(sys, scripts);
    ASSERT_EQ(r.result.faulted_nodes, std::vector<size_t>{0});
    EXPECT_NE(sys.nic(0).fault()->info().message.find("pool exhausted"), std::string::npos)
        << sys.nic(0).fault()->info().message;
    EXPECT_EQ(r.hosts[0]->niccb(ptl::kFeatures) & PTL_FW_FEAT_GO_BACK_N, 0u);
}

TEST(PortalsGoBackN, EveryMessageCarriesItsSequenceNumber) {
    // Two streams from node 0 (to 1 and to 2) and one from 1 to 2: numbers count per
    // destination from 0; a message's TX_DONE comes once the receiver acknowledged it.
    system::System sys(ptl::spec(3));
    NodeScript n0, n1, n2;
    for (uint32_t i = 0; i < 5; ++i) n0.sends.push_back({1 + (i & 1), i, kSendBase, 8, {}, {}});
    for (uint32_t i = 0; i < 3; ++i) n1.sends.push_back({2, 100 + i, kSendBase, 8, {}, {}});
    n1.expect_rx = 3;
    n2.expect_rx = 5;
    auto r = ptl::run(sys, {{0, &n0}, {1, &n1}, {2, &n2}});
    ASSERT_TRUE(n0.finished && n1.finished && n2.finished) << ptl::faults(sys);
    std::map<uint32_t, std::vector<uint32_t>> seqs;  // by source, in arrival order
    for (const auto* s : {&n1, &n2})
        for (const Incoming& in : s->received) seqs[in.src * 10 + (s == &n1 ? 1 : 2)].push_back(in.hdr.seq);
    EXPECT_EQ(seqs[1], (std::vector<uint32_t>{0, 1, 2})) << "node 0 to node 1";
    EXPECT_EQ(seqs[2], (std::vector<uint32_t>{0, 1})) << "node 0 to node 2";
    EXPECT_EQ(seqs[12], (std::vector<uint32_t>{0, 1, 2})) << "node 1 to node 2";
    // No exhaustion: nothing dropped or resent; the ACKs released every TX pending.
    for (auto& h : r.hosts) {
        EXPECT_EQ(h->niccb(ptl::kRxDrops), 0u);
        EXPECT_EQ(h->niccb(ptl::kRetransmits), 0u);
        EXPECT_EQ(h->niccb(ptl::kNacksSent), 0u);
        EXPECT_EQ(h->niccb(ptl::kSourcesInUse), 0u);
    }
    EXPECT_GT(r.hosts[0]->niccb(ptl::kAcksReceived), 0u);
    EXPECT_EQ(n0.tx_done.size(), 5u);
}

}  // namespace
}  // namespace niclab::test
