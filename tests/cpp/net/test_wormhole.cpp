// Wormhole switching: buffers smaller than a packet, heads that move on a flit of
// credit, blocked packets holding every link they span, tails freeing them.
#include <gtest/gtest.h>

#include <memory>

#include "net_test_nic.hpp"
#include "net_vnet_traffic.hpp"
#include "niclab/net/network_error.hpp"
#include "niclab/sim/random.hpp"

namespace niclab::net {
namespace {

using testing::make_frame;
using testing::make_nics;
using testing::payload_intact;

// 8-byte flits at 100 ns a byte (800 ns a flit), 8 bytes of overhead: a full 64-byte
// packet is 9 flits; router buffers of 2 flits, a NIC receive buffer of one packet.
NetworkParams worm(uint32_t buffer_flits = 2) {
    NetworkParams p;
    p.switching = Switching::Wormhole;
    p.flit_bytes = 8;
    p.link.overhead_bytes = 8;
    p.link.wire_bytes_per_s = 10'000'000;
    p.input_buffers = buffer_flits;
    p.receive_buffers = 9;
    return p;
}

Time one_packet(const TopologySpec& spec, const NetworkParams& p, NodeId src, NodeId dst, uint16_t len) {
    sim::Kernel k;
    Network net(k, spec, p);
    auto nics = make_nics(net);
    nics[src]->send(make_frame<64>(src, dst, 1, len));
    k.run_until(Time::ms(1));
    EXPECT_EQ(nics[dst]->log.size(), 1u);
    return nics[dst]->log.empty() ? Time{} : nics[dst]->log[0].at;
}

TEST(Wormhole, UnloadedPathTakesHeadLatencyPerHopPlusOneSerialization) {
    const NetworkParams p = worm();
    const Link link(0, p.link, 1, 1, 0, p.max_payload);
    const Mesh3D line{{4, 1, 1}, {}};
    // 0 -> 3: four routers, five cables (injection, three hops, ejection).
    const Time expect = p.router_delay * 4 + p.link.latency * 5 + link.serialization(64);
    EXPECT_EQ(one_packet(line, p, 0, 3, 64), expect);
    // A 2-flit buffer is smaller than the 9-flit packet, yet the path is what virtual
    // cut-through with whole-packet buffers gives.
    NetworkParams vct = p;
    vct.switching = Switching::VirtualCutThrough;
    vct.input_buffers = 9;
    EXPECT_EQ(one_packet(line, vct, 0, 3, 64), expect);
    // Direct cable and fat tree alike.
    EXPECT_EQ(one_packet(DirectCable{}, p, 0, 1, 10), p.link.latency + link.serialization(10));
    // Leaf, spine, leaf: three routers, four cables.
    EXPECT_EQ(one_packet(FatTree{2, 1, 2}, p, 0, 1, 64), p.router_delay * 3 + p.link.latency * 4 + link.serialization(64));
}

TEST(Wormhole, TheHeadSetsThePaceWhateverTheBufferSize) {
    // A 1 us router delay is more than a one-flit buffer (800 ns) covers: the body
    // stalls behind the head at every router, yet catches up, so the tail still
    // arrives one serialization after the head, the classic wormhole latency.
    NetworkParams p = worm(1);
    p.router_delay = Time::us(1);
    const Link link(0, p.link, 1, 1, 0, p.max_payload);
    const Mesh3D line{{4, 1, 1}, {}};
    const Time expect = p.router_delay * 4 + p.link.latency * 5 + link.serialization(64);
    EXPECT_EQ(one_packet(line, p, 0, 3, 64), expect);
    p.input_buffers = 4;
    EXPECT_EQ(one_packet(line, p, 0, 3, 64), expect);
}

// Node 3 refuses deliveries until `release`: packet 0 fills its receive buffer, and
// packet 1's head waits at the last router with its body spread back over the line
// 0-1-2-3. A packet from 1 to 2 needs the cable from router 1 to router 2 that packet
// 1 holds; one from 2 to 1 goes the other way and does not.
struct Blocked {
    Time held_flow;   // delivery of 1 -> 2
    Time other_flow;  // delivery of 2 -> 1
};

Blocked block_then_release(bool refuse, Time release) {
    sim::Kernel k;
    Network net(k, Mesh3D{{4, 1, 1}, {}}, worm());
    auto nics = make_nics(net);
    bool open = !refuse;
    nics[3]->accept = [&](const PacketView&) { return open; };
    nics[0]->send(make_frame<64>(0, 3, 0, 64));
    nics[0]->send(make_frame<64>(0, 3, 1, 64));
    k.run_until(Time::us(20));  // both worms are as far as they get
    nics[1]->send(make_frame<64>(1, 2, 0, 64));
    nics[2]->send(make_frame<64>(2, 1, 0, 64));
    k.run_until(release);
    open = true;
    net.endpoint_ready(3);
    k.run_until(release + Time::ms(1));
    EXPECT_EQ(nics[3]->log.size(), 2u);
    EXPECT_EQ(nics[2]->log.size(), 1u);
    EXPECT_EQ(nics[1]->log.size(), 1u);
    EXPECT_EQ(net.packets_in_flight(), 0u);
    return {nics[2]->log.at(0).at, nics[1]->log.at(0).at};
}

TEST(Wormhole, ABlockedPacketHoldsTheLinksItSpansAndOtherFlowsWait) {
    const Time release = Time::us(200);
    const Blocked free_run = block_then_release(false, release);
    const Blocked blocked = block_then_release(true, release);
    EXPECT_LT(free_run.held_flow, Time::us(40));
    EXPECT_GT(blocked.held_flow, release) << "1 -> 2 waited for the worm from 0 to 3 to move";
    EXPECT_EQ(blocked.other_flow, free_run.other_flow) << "2 -> 1 shares no link with it";
}

TEST(Wormhole, WithWholePacketBuffersTheSameFlowDoesNotWait) {
    // Contrast: virtual cut-through buffers the blocked packet in the last router, so
    // the cable from router 1 to router 2 is free.
    sim::Kernel k;
    NetworkParams p = worm(9);
    p.switching = Switching::VirtualCutThrough;
    Network net(k, Mesh3D{{4, 1, 1}, {}}, p);
    auto nics = make_nics(net);
    nics[3]->accept = [](const PacketView&) { return false; };
    nics[0]->send(make_frame<64>(0, 3, 0, 64));
    nics[0]->send(make_frame<64>(0, 3, 1, 64));
    k.run_until(Time::us(20));
    nics[1]->send(make_frame<64>(1, 2, 0, 64));
    k.run_until(Time::us(200));
    EXPECT_EQ(nics[2]->log.size(), 1u);
}

// Random traffic: FIFO per (source, destination, vnet), every payload intact, and
// afterwards every flit credit back and every link free.
void random_traffic(const TopologySpec& spec, NetworkParams p) {
    sim::Kernel k;
    p.vnets = 2;
    Network net(k, spec, p);
    testing::vnet_traffic_checked(k, net, 150, Time::ms(200));
    for (const Link& l : net.links()) {
        EXPECT_FALSE(l.held()) << "link " << l.id();
        for (uint32_t v = 0; v < l.vcs(); ++v) ASSERT_EQ(l.credits(v), l.credits_per_vc()) << "link " << l.id();
    }
}

TEST(Wormhole, FifoAndAllCreditsBackAfterRandomTrafficOnAMesh) { random_traffic(Mesh3D{{4, 4, 2}, {}}, worm()); }
TEST(Wormhole, FifoAndAllCreditsBackAfterRandomTrafficOnAFatTree) { random_traffic(FatTree::with_radix(8), worm()); }
TEST(Wormhole, FifoAndAllCreditsBackOnADirectCable) { random_traffic(DirectCable{}, worm()); }
TEST(Wormhole, OneFlitBuffersStillDeliverEverything) { random_traffic(Mesh3D{{4, 4, 1}, {}}, worm(1)); }

TEST(Wormhole, RunsAreDeterministic) {
    auto run = [] {
        sim::Kernel k;
        Network net(k, Mesh3D{{4, 4, 1}, {}}, worm());
        auto nics = make_nics(net);
        sim::Random rng(9, "traffic");
        for (int i = 0; i < 50; ++i)
            for (NodeId s = 0; s < net.nodes(); ++s)
                nics[s]->send(make_frame<64>(s, NodeId(rng.below(net.nodes())), uint32_t(i), uint16_t(rng.below(65))));
        k.run_until(Time::ms(50));
        std::vector<int64_t> times;
        for (const auto& n : nics)
            for (const auto& d : n->log) times.push_back(d.at.ps());
        return times;
    };
    const auto a = run();
    EXPECT_EQ(a.size(), 50u * 16);
    EXPECT_EQ(a, run());
}

TEST(Wormhole, NeedsFlitsAWrapFreeTopologyAndAWholePacketAtTheNic) {
    sim::Kernel k;
    NetworkParams p = worm();
    p.flit_bytes = 0;
    EXPECT_THROW(Network(k, Mesh3D{{2, 1, 1}, {}}, p), NetworkError);
    EXPECT_THROW(Network(k, Mesh3D::red_storm(2, 2, 2), worm()), NetworkError);
    p = worm();
    p.receive_buffers = 8;
    EXPECT_THROW(Network(k, Mesh3D{{2, 1, 1}, {}}, p), NetworkError);
    EXPECT_NO_THROW(Network(k, Mesh3D{{2, 1, 1}, {}}, worm(1)));
}

}  // namespace
}  // namespace niclab::net
