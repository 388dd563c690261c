// Head arrival (NetworkEndpoint::head_arrived): an endpoint that asks is told when a
// packet's header characters have crossed its receive cable, tail_at minus the
// serialization of the rest, then the packet is delivered at tail_at; in order, after
// the packets before it, and again after a refusal.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "net_test_nic.hpp"

namespace niclab::net {
namespace {

using testing::make_frame;
using testing::payload_intact;
using testing::TestNic;

// A DS link (seed 003 L85, L95; IEEE 1355): 100 ns a 10-bit character, a 4-bit (40 ns)
// end token, 5 header characters (2 routing + 3 protocol, the DSNIC's), flits of 8,
// packets of up to 1024 bytes.
NetworkParams ds(Switching switching) {
    NetworkParams p;
    p.link = testing::ds_link(5);
    p.router_delay = Time::ns(1000);
    p.flit_bytes = 8;
    // Cut-through needs a whole packet (129 flits) per buffer, a worm a flit.
    p.input_buffers = switching == Switching::Wormhole ? 8 : 160;
    p.receive_buffers = 160;
    p.max_payload = 1024;
    p.switching = switching;
    return p;
}

struct Head {
    Time at, tail_at;
    uint32_t message_id;
};

// A TestNic that wants heads and logs them; `refuse_heads` refuses while it is true.
class HeadNic : public TestNic {
public:
    // Attached again: wants_heads() is asked at attach, when this is a HeadNic.
    HeadNic(Network& net, NodeId node) : TestNic(net, node) { net.attach(node, this); }
    bool wants_heads() const override { return true; }
    bool head_arrived(const PacketView& p, Time tail_at) override {
        if (refuse_heads) return false;
        EXPECT_TRUE(payload_intact(p));
        heads.push_back({network().kernel().now(), tail_at, p.message_id});
        return true;
    }
    std::vector<Head> heads;
    bool refuse_heads = false;
};

std::vector<std::unique_ptr<HeadNic>> head_nics(Network& net) {
    std::vector<std::unique_ptr<HeadNic>> nics;
    for (NodeId n = 0; n < net.nodes(); ++n) nics.push_back(std::make_unique<HeadNic>(net, n));
    return nics;
}

// 100 payload characters and the end token behind the header: 10 040 ns.
constexpr int64_t kRestNs = 100 * 100 + 40;

TEST(HeadArrival, OnADirectCableTheHeadIsTheTailLessTheRest) {
    for (auto sw : {Switching::VirtualCutThrough, Switching::Wormhole}) {
        sim::Kernel k;
        Network net(k, DirectCable{}, ds(sw));
        auto nics = head_nics(net);
        nics[0]->send(make_frame<1024>(0, 1, 7, 100));
        k.run_until(Time::ms(1));
        ASSERT_EQ(nics[1]->heads.size(), 1u);
        ASSERT_EQ(nics[1]->log.size(), 1u);
        const Head& h = nics[1]->heads[0];
        // The cable's 20 ns, then the 5 header characters.
        EXPECT_EQ(h.at, Time::ns(20 + 500));
        EXPECT_EQ(h.tail_at, nics[1]->log[0].at);
        EXPECT_EQ(h.tail_at - h.at, Time::ns(kRestNs));
        EXPECT_TRUE(nics[0]->heads.empty());
    }
}

TEST(HeadArrival, ThroughASwitchTheHeadIsTheTailLessTheRest) {
    for (auto sw : {Switching::VirtualCutThrough, Switching::Wormhole}) {
        sim::Kernel k;
        Network net(k, Crossbar{4}, ds(sw));
        auto nics = head_nics(net);
        nics[2]->send(make_frame<1024>(2, 3, 9, 100));
        k.run_until(Time::ms(1));
        ASSERT_EQ(nics[3]->heads.size(), 1u);
        ASSERT_EQ(nics[3]->log.size(), 1u);
        const Head& h = nics[3]->heads[0];
        // Two cables, the switch's 1 us, the header characters.
        EXPECT_EQ(h.at, Time::ns(20 + 1000 + 20 + 500));
        EXPECT_EQ(h.tail_at, nics[3]->log[0].at);
        EXPECT_EQ(h.tail_at - h.at, Time::ns(kRestNs));
    }
}

// A refused delivery holds the packets behind it: the next head is told only after the
// refused packet went in, and before its own delivery.
TEST(HeadArrival, HeadsWaitForThePacketsBeforeThem) {
    sim::Kernel k;
    Network net(k, Crossbar{2}, ds(Switching::Wormhole));
    auto nics = head_nics(net);
    bool hold = true;
    nics[1]->accept = [&](const PacketView&) { return !hold; };
    for (uint32_t i = 0; i < 3; ++i) nics[0]->send(make_frame<1024>(0, 1, i, 100));
    k.run_until(Time::us(100));
    // The first packet's head is told; its delivery is refused; the others wait.
    ASSERT_EQ(nics[1]->heads.size(), 1u);
    EXPECT_TRUE(nics[1]->log.empty());
    const Time release = k.now();
    hold = false;
    net.endpoint_ready(1);
    k.run_until(Time::ms(1));
    ASSERT_EQ(nics[1]->heads.size(), 3u);
    ASSERT_EQ(nics[1]->log.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i) {
        EXPECT_EQ(nics[1]->heads[i].message_id, i);
        EXPECT_EQ(nics[1]->log[i].packet.message_id, i);
        EXPECT_LE(nics[1]->heads[i].at, nics[1]->log[i].at);
        if (i > 0) {
            EXPECT_GE(nics[1]->heads[i].at, nics[1]->log[i - 1].at);
        }
    }
    // The second packet was in by then: its head is told at the release, with a past tail.
    EXPECT_EQ(nics[1]->heads[1].at, release);
    EXPECT_LT(nics[1]->heads[1].tail_at, release);
}

TEST(HeadArrival, ARefusedHeadIsToldAgainAfterEndpointReady) {
    sim::Kernel k;
    Network net(k, DirectCable{}, ds(Switching::Wormhole));
    auto nics = head_nics(net);
    nics[1]->refuse_heads = true;
    nics[0]->send(make_frame<1024>(0, 1, 5, 100));
    k.run_until(Time::us(3));  // head in, tail still coming
    EXPECT_TRUE(nics[1]->heads.empty());
    EXPECT_EQ(net.stats().heads_refused, 1u);
    nics[1]->refuse_heads = false;
    net.endpoint_ready(1);
    ASSERT_EQ(nics[1]->heads.size(), 1u);
    EXPECT_EQ(nics[1]->heads[0].at, Time::us(3));
    EXPECT_EQ(nics[1]->heads[0].tail_at, Time::ns(20 + 500 + kRestNs));
    k.run_until(Time::ms(1));
    ASSERT_EQ(nics[1]->log.size(), 1u);
    EXPECT_EQ(nics[1]->log[0].at, nics[1]->heads[0].tail_at);
    EXPECT_EQ(net.stats().deliveries_refused, 0u);
}

// Retries of the receive cable: every packet is told once, the good copy's head.
TEST(HeadArrival, RetriedPacketsAreToldOnceAtTheGoodCopysHead) {
    NetworkParams p = ds(Switching::Wormhole);
    p.link.bit_error_rate = 2e-4;
    sim::Kernel k;
    Network net(k, Crossbar{2}, p);
    auto nics = head_nics(net);
    for (uint32_t i = 0; i < 40; ++i) nics[0]->send(make_frame<1024>(0, 1, i, 100));
    k.run_until(Time::ms(5));
    ASSERT_GT(net.stats().retries, 0u);
    ASSERT_EQ(nics[1]->heads.size(), 40u);
    ASSERT_EQ(nics[1]->log.size(), 40u);
    for (uint32_t i = 0; i < 40; ++i) {
        EXPECT_EQ(nics[1]->heads[i].message_id, i);
        EXPECT_EQ(nics[1]->heads[i].tail_at, nics[1]->log[i].at);
        EXPECT_EQ(nics[1]->heads[i].tail_at - nics[1]->heads[i].at, Time::ns(kRestNs)) << i;
    }
}

std::vector<Head> random_traffic_heads(uint64_t seed) {
    sim::Kernel k;
    NetworkParams p = ds(Switching::Wormhole);
    p.seed = seed;
    Network net(k, Crossbar{8}, p);
    auto nics = head_nics(net);
    for (uint32_t i = 0; i < 200; ++i) {
        const NodeId src = i % 8, dst = (i * 5 + 3) % 8;
        if (src != dst) nics[src]->send(make_frame<1024>(src, dst, i, uint16_t(1 + i * 37 % 900)));
    }
    k.run_until(Time::ms(20));
    std::vector<Head> all;
    for (auto& n : nics) all.insert(all.end(), n->heads.begin(), n->heads.end());
    return all;
}

TEST(HeadArrival, Deterministic) {
    const auto a = random_traffic_heads(3), b = random_traffic_heads(3);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_GT(a.size(), 150u);
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].at, b[i].at);
        EXPECT_EQ(a[i].tail_at, b[i].tail_at);
        EXPECT_EQ(a[i].message_id, b[i].message_id);
        EXPECT_LE(a[i].at, a[i].tail_at);
    }
}

// Endpoints that do not ask are not told (and pay no event for it).
TEST(HeadArrival, OnlyEndpointsThatAskAreTold) {
    sim::Kernel k;
    Network net(k, DirectCable{}, ds(Switching::Wormhole));
    auto nics = testing::make_nics(net);
    auto listener = std::make_unique<HeadNic>(net, 1);
    net.attach(1, nics[1].get());  // a plain NIC on node 1 after all
    nics[0]->send(make_frame<1024>(0, 1, 1, 100));
    k.run_until(Time::ms(1));
    EXPECT_TRUE(listener->heads.empty());
    EXPECT_EQ(nics[1]->log.size(), 1u);
}

}  // namespace
}  // namespace niclab::net
