// Delivery: every packet arrives, intact, in order per (src, dst), under random
// traffic and under a many-to-one burst into a slow, sometimes refusing NIC.
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "net_test_nic.hpp"
#include "niclab/net/network_error.hpp"
#include "niclab/sim/random.hpp"

namespace niclab::net {
namespace {

using testing::TestNic;
using testing::make_nics;
using testing::make_packet;
using testing::payload_intact;

TEST(Delivery, EveryPairOnEveryTopology) {
    const TopologySpec specs[] = {Mesh3D{{4, 4, 4}, {}}, Mesh3D::red_storm(3, 3, 4), FatTree::with_radix(8),
                                  DirectCable{}};
    for (const auto& spec : specs) {
        sim::Kernel k;
        Network net(k, spec);
        auto nics = make_nics(net);
        for (NodeId s = 0; s < net.nodes(); ++s)
            for (NodeId d = 0; d < net.nodes(); ++d)
                if (s != d || net.topology().routers() > 0) nics[s]->send(make_packet(s, d, d, uint8_t(1 + d % 64)));
        k.run_until(Time::ms(1));
        for (NodeId d = 0; d < net.nodes(); ++d) {
            ASSERT_EQ(nics[d]->log.size(), net.topology().routers() > 0 ? net.nodes() : 1u) << "node " << d;
            for (const auto& got : nics[d]->log) {
                EXPECT_EQ(got.packet.dst, d);
                EXPECT_TRUE(payload_intact(got.packet));
            }
        }
        EXPECT_EQ(net.packets_in_flight(), 0u);
        EXPECT_EQ(net.stats().packets_delivered, net.stats().packets_injected);
    }
}

// Every node queues `per_node` packets to random destinations and injects them as
// fast as credits allow; per (src, dst) the message ids must arrive increasing.
void random_traffic_in_order(const TopologySpec& spec, int per_node) {
    sim::Kernel k;
    NetworkParams params;
    params.input_buffers = 2;  // small buffers: lots of back-pressure
    Network net(k, spec, params);
    auto nics = make_nics(net);
    sim::Random rng(42, "traffic");
    uint64_t bytes = 0;
    for (int i = 0; i < per_node; ++i)
        for (NodeId s = 0; s < net.nodes(); ++s) {
            const NodeId d = NodeId(rng.below(net.nodes()));
            const uint8_t len = uint8_t(rng.below(65));
            bytes += len;
            nics[s]->send(make_packet(s, d, uint32_t(i), len));
        }
    k.run_until(Time::ms(10));
    std::map<std::pair<NodeId, NodeId>, int64_t> last;
    uint64_t delivered = 0, got_bytes = 0;
    for (NodeId d = 0; d < net.nodes(); ++d)
        for (const auto& got : nics[d]->log) {
            auto [it, fresh] = last.try_emplace({got.packet.src, d}, -1);
            ASSERT_LT(it->second, int64_t(got.packet.message_id)) << got.packet.src << " -> " << d;
            it->second = got.packet.message_id;
            ASSERT_TRUE(payload_intact(got.packet));
            ++delivered;
            got_bytes += got.packet.length;
        }
    EXPECT_EQ(delivered, uint64_t(per_node) * net.nodes());
    EXPECT_EQ(got_bytes, bytes);
    EXPECT_EQ(net.stats().bytes_delivered, bytes);
    EXPECT_GT(net.stats().injections_refused, 0u) << "the sources were really held back by credits";
    EXPECT_LE(net.stats().max_buffer_occupancy, std::max(params.input_buffers, params.receive_buffers));
}

TEST(Delivery, InOrderUnderHeavyRandomTrafficMesh) { random_traffic_in_order(Mesh3D{{4, 4, 4}, {}}, 300); }
// A saturated torus would deadlock without the dateline virtual channels.
TEST(Delivery, InOrderUnderHeavyRandomTrafficTorus) { random_traffic_in_order(Mesh3D::red_storm(3, 3, 4), 300); }
TEST(Delivery, InOrderUnderHeavyRandomTrafficFullTorus) {
    random_traffic_in_order(Mesh3D{{4, 4, 4}, {true, true, true}}, 300);
}
TEST(Delivery, InOrderUnderHeavyRandomTrafficFatTree) { random_traffic_in_order(FatTree::with_radix(8), 300); }

// A NIC with a few receive buffers that drain slowly, which also refuses some
// deliveries at random; the network must hold, not drop, what it cannot deliver.
class SlowSink : public NetworkEndpoint {
public:
    SlowSink(Network& net, NodeId node) : net_(net), node_(node), rng_(7, "sink") { net.attach(node, this); }
    bool deliver(const PacketView& p) override {
        if (free_ == 0) return false;  // endpoint_ready() comes when a buffer drains
        if (rng_.bernoulli(0.3)) {     // busy for another reason: ask again shortly
            net_.kernel().schedule_in(Time::ns(40), [this] { net_.endpoint_ready(node_); });
            return false;
        }
        --free_;
        log.push_back(p);
        net_.kernel().schedule_in(Time::ns(150), [this] {
            ++free_;
            net_.endpoint_ready(node_);
        });
        return true;
    }
    std::vector<testing::StoredPacket> log;

private:
    Network& net_;
    NodeId node_;
    sim::Random rng_;
    int free_ = 2;
};

TEST(Delivery, ManyToOneBurstIntoSlowRefusingNic) {
    sim::Kernel k;
    Network net(k, Mesh3D{{4, 4, 4}, {}});
    auto nics = make_nics(net);
    SlowSink sink(net, 0);  // replaces node 0's TestNic as the attached endpoint
    constexpr int kPerSource = 100;
    uint64_t bytes = 0;
    for (NodeId s = 1; s < 64; ++s)
        for (int i = 0; i < kPerSource; ++i) {
            const uint8_t len = uint8_t(1 + (s * 7 + i) % 64);
            bytes += len;
            nics[s]->send(make_packet(s, 0, uint32_t(i), len));
        }
    k.run_until(Time::ms(50));
    ASSERT_EQ(sink.log.size(), 63u * kPerSource);
    uint64_t got_bytes = 0;
    std::vector<int64_t> last(64, -1);
    for (const auto& p : sink.log) {
        ASSERT_TRUE(payload_intact(p));
        ASSERT_LT(last[p.src], int64_t(p.message_id));
        last[p.src] = p.message_id;
        got_bytes += p.length;
    }
    EXPECT_EQ(got_bytes, bytes);
    EXPECT_GT(net.stats().deliveries_refused, 0u);
    EXPECT_EQ(net.packets_in_flight(), 0u);
    // ~100 ns per packet at the sink: the burst is sink-bound, far beyond link speed.
    EXPECT_GT(k.now(), Time::us(6300 / 10));
}

TEST(Delivery, DirectCablesPairNodesAndCarryEachPairOnItsOwnCable) {
    // Three cables: nodes 0-1, 2-3, 4-5 (a system whose two nodes own three ports each).
    sim::Kernel k;
    Network net(k, DirectCable{3});
    ASSERT_EQ(net.nodes(), 6u);
    auto nics = make_nics(net);
    for (NodeId n = 0; n < 6; ++n) nics[n]->send(make_packet(n, n ^ 1, n, 8));
    k.run_until(Time::ms(1));
    for (NodeId n = 0; n < 6; ++n) {
        ASSERT_EQ(nics[n]->log.size(), 1u) << "node " << n;
        EXPECT_EQ(nics[n]->log[0].packet.src, n ^ 1);
        EXPECT_EQ(net.link(net.injection_link(n)).stats().packets, 1u) << "node " << n;
    }
    // A cable reaches only its pair.
    EXPECT_THROW(net.inject(0, make_packet(0, 3, 0, 1)), NetworkError);
    EXPECT_THROW(Network(k, DirectCable{0}), NetworkError);
}

TEST(Delivery, DetachedNicHoldsPacketsUntilAttached) {
    sim::Kernel k;
    Network net(k, DirectCable{});
    TestNic a(net, 0);
    a.send(make_packet(0, 1, 1, 8));
    a.send(make_packet(0, 1, 2, 8));
    k.run_until(Time::us(1));
    EXPECT_EQ(net.packets_in_flight(), 2u);
    TestNic b(net, 1);
    ASSERT_EQ(b.log.size(), 2u);
    EXPECT_EQ(b.log[1].packet.message_id, 2u);
}

TEST(Delivery, MalformedInjectionsAreNetworkErrors) {
    sim::Kernel k;
    Network net(k, Mesh3D{{2, 2, 2}, {}});
    EXPECT_THROW(net.inject(9, make_packet(9, 0, 0, 1)), NetworkError);
    EXPECT_THROW(net.inject(0, make_packet(0, 8, 0, 1)), NetworkError);
    EXPECT_THROW(net.inject(1, make_packet(0, 2, 0, 1)), NetworkError);
    Packet big = make_packet(0, 1, 0, 1);
    big.length = 65;
    EXPECT_THROW(net.inject(0, big), NetworkError);
    sim::Kernel k2;
    Network cable(k2, DirectCable{});
    EXPECT_THROW(cable.inject(0, make_packet(0, 0, 0, 1)), NetworkError);
}

}  // namespace
}  // namespace niclab::net
