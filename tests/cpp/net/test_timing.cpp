// Timing: link payload bandwidth, credit-limited throughput, and the exact latency
// of a packet through an idle network, all from the parameters.
#include <gtest/gtest.h>

#include "net_test_nic.hpp"

namespace niclab::net {
namespace {

using testing::TestNic;
using testing::make_packet;

TEST(Timing, SerializationFromPayloadBandwidth) {
    Link link(0, LinkParams{}, 1, 1, 0);
    // 64 bytes at 2.5 GB/s of payload (seed 001 §2) = 25.6 ns.
    EXPECT_EQ(link.serialization(64), Time::ps(25'600));
    // Short packets pay the full header: (overhead + 8) / (overhead + 64) of a full
    // packet, rounded up to a whole picosecond.
    constexpr int64_t o = Packet::kWireOverhead;
    EXPECT_EQ(link.serialization(8), Time::ps(((8 + o) * 25'600 + 63 + o) / (64 + o)));
    EXPECT_EQ(link.serialization(0), Time::ps((o * 25'600 + 63 + o) / (64 + o)));
}

TEST(Timing, DirectCableStreamsAtLinkPayloadBandwidth) {
    sim::Kernel k;
    Network net(k, DirectCable{});
    TestNic a(net, 0), b(net, 1);
    constexpr int kPackets = 20'000;
    for (int i = 0; i < kPackets; ++i) a.send(make_packet(0, 1, uint32_t(i), 64));
    k.run_until(Time::ms(10));
    ASSERT_EQ(b.log.size(), size_t(kPackets));
    const Time span = b.log.back().at - b.log.front().at;
    const double bytes_per_s = double(kPackets - 1) * 64 / (double(span.ps()) * 1e-12);
    EXPECT_NEAR(bytes_per_s, 2.5e9, 2.5e9 * 0.01);
    EXPECT_NEAR(net.utilization(net.injection_link(0), b.log.back().at), 1.0, 0.01);
    EXPECT_EQ(net.link(net.injection_link(0)).stats().payload_bytes, uint64_t(kPackets) * 64);
}

TEST(Timing, OneCreditThrottlesToTheCreditRoundTrip) {
    sim::Kernel k;
    NetworkParams p;
    p.receive_buffers = 1;
    Network net(k, DirectCable{}, p);
    TestNic a(net, 0), b(net, 1);
    for (int i = 0; i < 100; ++i) a.send(make_packet(0, 1, uint32_t(i), 64));
    k.run_until(Time::ms(1));
    ASSERT_EQ(b.log.size(), 100u);
    // Send, tail arrives, NIC takes it, credit flies back: serialization + 2 latencies.
    const Time period = Time::ps(25'600) + p.link.latency * 2;
    for (size_t i = 1; i < b.log.size(); ++i) ASSERT_EQ(b.log[i].at - b.log[i - 1].at, period);
}

// One packet, idle network: routers × router delay + links × link latency + one
// serialization (virtual cut-through), with links = hops + 2 and routers = hops + 1.
Time one_packet_latency(const TopologySpec& spec, NodeId src, NodeId dst, uint8_t len, NetworkParams p = {}) {
    sim::Kernel k;
    Network net(k, spec, p);
    TestNic s(net, src), d(net, dst);
    k.run_until(Time::us(1));
    const Time t0 = k.now();
    s.send(make_packet(src, dst, 0, len));
    k.run_until(Time::us(10));
    EXPECT_EQ(d.log.size(), 1u);
    return d.log.empty() ? Time{} : d.log[0].at - t0;
}

Time expected(uint32_t hops, const NetworkParams& p, Time ser) {
    return p.router_delay * (hops + 1) + p.link.latency * (hops + 2) + ser;
}

TEST(Timing, OnePacketLatencyIsExact) {
    const NetworkParams p;
    const Time full = Time::ps(25'600);
    // Mesh corner to corner: 3 + 3 + 3 hops.
    EXPECT_EQ(one_packet_latency(Mesh3D{{4, 4, 4}, {}}, 0, 63, 64), expected(9, p, full));
    // Torus in z: z 0 -> 3 is one hop over the wrap cable.
    EXPECT_EQ(one_packet_latency(Mesh3D::red_storm(3, 3, 4), 0, 27, 64), expected(1, p, full));
    // Fat tree: leaf, spine, leaf.
    EXPECT_EQ(one_packet_latency(FatTree::with_radix(8), 0, 31, 64), expected(2, p, full));
    // A NIC sending to itself still goes through its router: one router, two cables.
    EXPECT_EQ(one_packet_latency(Mesh3D{{2, 2, 2}, {}}, 5, 5, 64), expected(0, p, full));
    // Computed dimension-order routes take the same time as the table's.
    Mesh3D computed{{4, 4, 4}, {}, MeshRouting::Computed};
    EXPECT_EQ(one_packet_latency(computed, 0, 63, 64), expected(9, p, full));
    // Direct cable: one cable, no router.
    EXPECT_EQ(one_packet_latency(DirectCable{}, 0, 1, 64), p.link.latency + full);
}

TEST(Timing, LatencyFollowsTheParameters) {
    NetworkParams p;
    p.router_delay = Time::ns(23);
    p.link.latency = Time::ns(7);
    p.link.payload_bytes_per_s = 1'000'000'000;
    p.link.overhead_bytes = 0;
    // 16 bytes at 1 GB/s = 16 ns.
    EXPECT_EQ(one_packet_latency(Mesh3D{{4, 4, 4}, {}}, 0, 21, 16, p), expected(3, p, Time::ns(16)));
}

}  // namespace
}  // namespace niclab::net

namespace niclab::net {
namespace {

// The lookahead is the least delay from an event of one node to one of another: a
// cable's latency and what has to follow it before the far end acts.
TEST(Lookahead, ACreditFollowsTheShortestPacketOutOfTheRouterThatFreesIt) {
    sim::Kernel k;
    Network mesh(k, Mesh3D{{2, 2, 1}});  // SeaStar's cables: 10 ns, 50 ns routers
    const Link& cable = mesh.link(0);
    ASSERT_GT(mesh.params().router_delay, cable.serialization(0));
    EXPECT_EQ(mesh.lookahead(), cable.latency() + cable.serialization(0));
}

TEST(Lookahead, APacketIsRoutedARouterDelayAfterItsHead) {
    sim::Kernel k;
    NetworkParams p;
    p.router_delay = Time::ps(1500);  // quicker than a 0-byte packet's 7.4 ns
    Network mesh(k, Mesh3D{{3, 1, 1}}, p);
    EXPECT_EQ(mesh.lookahead(), p.link.latency + Time::ps(1500));
}

TEST(Lookahead, ADirectCableIsItsLatency) {
    sim::Kernel k;
    Network cable(k, DirectCable{});  // a NIC gives a credit back on delivery, at once
    EXPECT_EQ(cable.lookahead(), cable.link(0).latency());
}

// Behind switches of no node (shared by several nodes) one node's doings reach another
// over two cables at the soonest; where a cable joins two nodes' parts (their own routers,
// or two NICs), over one.
TEST(Lookahead, BehindSharedSwitchesANodeIsTwoCablesFromAnother) {
    sim::Kernel k;
    EXPECT_EQ(Network(k, Crossbar{4}).cross_node_hops(), 2u);
    EXPECT_EQ(Network(k, FatTree{2, 2, 2}).cross_node_hops(), 2u);
    EXPECT_EQ(Network(k, FatTree{2, 1, 2}).cross_node_hops(), 2u);  // own leaves, but shared spines between
    EXPECT_EQ(Network(k, Mesh3D{{2, 2, 1}}).cross_node_hops(), 1u);
    EXPECT_EQ(Network(k, DirectCable{}).cross_node_hops(), 1u);
}

TEST(Lookahead, NoneWithWormholeSwitching) {
    sim::Kernel k;
    NetworkParams p;
    p.switching = Switching::Wormhole;
    p.flit_bytes = 8;
    p.receive_buffers = 16;
    Network mesh(k, Mesh3D{{2, 1, 1}}, p);
    EXPECT_EQ(mesh.lookahead(), Time{});
}

}  // namespace
}  // namespace niclab::net
