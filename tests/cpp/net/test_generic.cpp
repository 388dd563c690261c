// The network for any system's frames: payload capacity and wire overhead per
// network, virtual networks with strict priority, and random up-routes on fat trees.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>

#include "net_test_nic.hpp"
#include "net_vnet_traffic.hpp"
#include "niclab/net/network_error.hpp"
#include "niclab/sim/random.hpp"

namespace niclab::net {
namespace {

using testing::make_frame;
using testing::make_nics;
using testing::make_packet;
using testing::payload_intact;
using testing::TestNic;

// A DS-link-like network: 4096-byte payloads, 10 MB/s on the wire, 8 bytes of
// header and trailer per packet (numbers chosen to make the arithmetic plain).
NetworkParams ds_like() {
    NetworkParams p;
    p.max_payload = 4096;
    p.link.wire_bytes_per_s = 10'000'000;  // 100 ns a byte
    p.link.overhead_bytes = 8;
    return p;
}

// ---- variable lengths -------------------------------------------------------------

TEST(VariableLength, EveryLengthUpTo4096CrossesAMeshIntactAndInOrder) {
    sim::Kernel k;
    NetworkParams p = ds_like();
    p.link.wire_bytes_per_s = 0;  // the payload rate then refers to full 4096-byte packets
    Network net(k, Mesh3D{{2, 2, 1}, {}}, p);
    auto nics = make_nics(net);
    const uint16_t lengths[] = {0, 1, 63, 64, 65, 96, 255, 256, 257, 1000, 2048, 4095, 4096};
    uint32_t id = 0;
    uint64_t bytes = 0;
    for (uint16_t len : lengths) {
        nics[0]->send(make_frame<4096>(0, 3, id++, len));
        bytes += len;
    }
    k.run_until(Time::ms(1));
    ASSERT_EQ(nics[3]->log.size(), std::size(lengths));
    for (size_t i = 0; i < std::size(lengths); ++i) {
        const auto& got = nics[3]->log[i].packet;
        EXPECT_EQ(got.message_id, i);
        EXPECT_EQ(got.length, lengths[i]);
        EXPECT_TRUE(payload_intact(got)) << "length " << lengths[i];
    }
    EXPECT_EQ(net.stats().bytes_delivered, bytes);
    EXPECT_EQ(net.packets_in_flight(), 0u);
}

TEST(VariableLength, SerializationComesFromThePerNetworkOverhead) {
    const NetworkParams p = ds_like();
    Link link(0, p.link, 1, 1, 0, p.max_payload);
    EXPECT_EQ(link.serialization(4096), Time::ns(100) * (4096 + 8));
    EXPECT_EQ(link.serialization(0), Time::ns(800)) << "an empty packet still pays header and trailer";
    // A payload rate refers to full packets of the network's capacity: StarT-X-sized
    // 96-byte packets at 100 MB/s with 4 bytes of overhead take 960 ns when full.
    LinkParams lp;
    lp.payload_bytes_per_s = 100'000'000;
    lp.overhead_bytes = 4;
    Link s(0, lp, 1, 1, 0, 96);
    EXPECT_EQ(s.serialization(96), Time::ns(960));
    EXPECT_EQ(s.serialization(0), Time::ps((4 * 960'000 + 99) / 100));
}

TEST(VariableLength, SerializationOfLongPacketsOnSlowLinksNeedsNoMoreThanExactArithmetic) {
    // wire × max_payload × 1e12 overflows 64 bits here; the result must still be exact.
    LinkParams lp;
    lp.payload_bytes_per_s = 3;
    lp.overhead_bytes = 4095;
    Link link(0, lp, 1, 1, 0, 4096);
    // (4096 + 4095) × 4096e12 / (8191 × 3) = 4096e12 / 3, rounded up.
    EXPECT_EQ(link.serialization(4096), Time::ps(1'365'333'333'333'334));
}

TEST(VariableLength, OnePacketLatencyUsesTheNetworksSerialization) {
    sim::Kernel k;
    const NetworkParams p = ds_like();
    Network net(k, FatTree{2, 1, 1}, p);
    TestNic a(net, 0), b(net, 1);
    a.send(make_frame<4096>(0, 1, 0, 4096));
    k.run_until(Time::ms(2));
    ASSERT_EQ(b.log.size(), 1u);
    // Cut-through: leaf, spine, leaf; four cables; one serialization of 4104 wire bytes.
    EXPECT_EQ(b.log[0].at, p.router_delay * 3 + p.link.latency * 4 + Time::ns(100) * 4104);
}

TEST(VariableLength, SeaStarPacketsCostWhatTheyDid) {
    // The defaults are SeaStar's: 64-byte capacity, 26 bytes of overhead, 2.5 GB/s.
    const NetworkParams p;
    EXPECT_EQ(p.max_payload, 64u);
    EXPECT_EQ(p.link.overhead_bytes, 26u);
    EXPECT_EQ(p.vnets, 1u);
    Link link(0, p.link, 1, 1, 0);
    EXPECT_EQ(link.serialization(64), Time::ps(25'600));
    // The header does not grow SeaStar's frame, nor the network's per-packet slot.
    EXPECT_LE(sizeof(Packet), 96u);
    EXPECT_LE(sizeof(PacketSlot), 64u);
}

TEST(VariableLength, MalformedPacketsAreNamedErrors) {
    sim::Kernel k;
    NetworkParams p;
    p.max_payload = 96;
    Network net(k, Mesh3D{{2, 1, 1}, {}}, p);
    auto frame = make_frame<128>(0, 1, 0, 97);
    try {
        net.inject(0, frame);
        FAIL() << "a 97-byte payload on a 96-byte network was accepted";
    } catch (const NetworkError& e) {
        EXPECT_NE(std::string(e.what()).find("97 bytes exceeds the network's 96"), std::string::npos) << e.what();
    }
    // A length beyond the frame's own buffer cannot be read: refused, not overrun.
    Packet small = make_packet(0, 1, 0, 8);
    small.length = 90;
    EXPECT_THROW(net.inject(0, small), NetworkError);
    EXPECT_NO_THROW(net.inject(0, make_frame<128>(0, 1, 1, 96)));
    EXPECT_EQ(net.packets_in_flight(), 1u);
}

TEST(VariableLength, NetworkParametersAreChecked) {
    sim::Kernel k;
    for (uint32_t bad : {0u, 4097u}) {
        NetworkParams p;
        p.max_payload = bad;
        EXPECT_THROW(Network(k, DirectCable{}, p), NetworkError) << bad;
    }
    for (uint32_t bad : {0u, NetworkParams::kMaxVnets + 1}) {
        NetworkParams p;
        p.vnets = bad;
        EXPECT_THROW(Network(k, DirectCable{}, p), NetworkError) << bad;
    }
}

// ---- virtual networks -------------------------------------------------------------

TEST(VirtualNetworks, VnetOutOfRangeIsAnError) {
    sim::Kernel k;
    NetworkParams p;
    p.vnets = 2;
    Network net(k, DirectCable{}, p);
    EXPECT_NO_THROW(net.inject(0, make_frame<64>(0, 1, 0, 8, 1)));
    try {
        net.inject(0, make_frame<64>(0, 1, 0, 8, 2));
        FAIL() << "vnet 2 on a two-vnet network was accepted";
    } catch (const NetworkError& e) {
        EXPECT_NE(std::string(e.what()).find("vnet 2"), std::string::npos) << e.what();
    }
}

// The receiver refuses every packet of one vnet: that vnet backs up through the
// whole path, and the other must still get through.
struct Backlog {
    size_t delivered[2] = {0, 0};
    uint64_t refused = 0;
};
Backlog one_vnet_refused(uint8_t refused_vnet, const TopologySpec& spec, NodeId src, NodeId dst) {
    sim::Kernel k;
    NetworkParams p;
    p.vnets = 2;
    p.input_buffers = 2;
    p.receive_buffers = 2;
    Network net(k, spec, p);
    auto nics = make_nics(net);
    nics[dst]->accept = [refused_vnet](const PacketView& v) { return v.vnet != refused_vnet; };
    const uint8_t other = uint8_t(1 - refused_vnet);
    for (uint32_t i = 0; i < 200; ++i) nics[src]->send(make_frame<64>(src, dst, i, 64, refused_vnet));
    k.run_until(Time::us(20));  // the refused vnet is full everywhere now
    for (uint32_t i = 0; i < 50; ++i) nics[src]->send(make_frame<64>(src, dst, 1000 + i, 64, other));
    k.run_until(Time::us(100));
    Backlog b;
    for (const auto& got : nics[dst]->log) {
        ++b.delivered[got.packet.vnet];
        EXPECT_TRUE(payload_intact(got.packet));
    }
    b.refused = net.stats().deliveries_refused;
    return b;
}

TEST(VirtualNetworks, CongestedLowPriorityDoesNotBlockHighPriority) {
    for (const TopologySpec& spec : {TopologySpec{DirectCable{}}, TopologySpec{Mesh3D{{4, 1, 1}, {}}},
                                     TopologySpec{Mesh3D{{4, 1, 1}, {true, false, false}}}}) {
        const NodeId dst = std::holds_alternative<DirectCable>(spec) ? 1 : 3;
        const Backlog b = one_vnet_refused(1, spec, 0, dst);
        EXPECT_EQ(b.delivered[1], 0u);
        EXPECT_EQ(b.delivered[0], 50u) << "vnet 0 got through the congested vnet 1";
        EXPECT_GT(b.refused, 0u);
    }
}

TEST(VirtualNetworks, EachVnetHasItsOwnBuffersEvenWhenTheHighOneIsFull) {
    // Buffers alone never let one vnet block another; blocking by vnet 0 comes from
    // arbitration (next test), so a refused vnet 0 leaves vnet 1 flowing too.
    const Backlog b = one_vnet_refused(0, Mesh3D{{4, 1, 1}, {}}, 0, 3);
    EXPECT_EQ(b.delivered[0], 0u);
    EXPECT_EQ(b.delivered[1], 50u);
}

// Two sources share the last cable into one sink, which holds every packet until
// `release`: both vnets then have a backlog in front of that cable. Returns the
// vnets in delivery order.
std::vector<uint8_t> drain_order(uint8_t vnet_of_far_source) {
    sim::Kernel k;
    NetworkParams p;
    p.vnets = 2;
    Network net(k, Mesh3D{{3, 1, 1}, {}}, p);
    auto nics = make_nics(net);
    bool open = false;
    nics[2]->accept = [&open](const PacketView&) { return open; };
    for (uint32_t i = 0; i < 40; ++i) {
        nics[0]->send(make_frame<64>(0, 2, i, 64, vnet_of_far_source));
        nics[1]->send(make_frame<64>(1, 2, i, 64, uint8_t(1 - vnet_of_far_source)));
    }
    k.run_until(Time::us(20));
    open = true;
    net.endpoint_ready(2);
    k.run_until(Time::us(100));
    std::vector<uint8_t> order;
    for (const auto& got : nics[2]->log) order.push_back(got.packet.vnet);
    return order;
}

TEST(VirtualNetworks, StrictPriorityServesTheBacklogOfVnetZeroFirst) {
    for (uint8_t far : {0, 1}) {
        const auto order = drain_order(far);
        ASSERT_EQ(order.size(), 80u);
        // The NIC's own receive buffers hold 8 of each vnet when the sink opens: it
        // takes those in vnet order; then the cable brings every other vnet-0 packet
        // before any more of vnet 1, whichever source is farther.
        std::vector<uint8_t> want;
        for (auto [vnet, n] : {std::pair{0, 8}, {1, 8}, {0, 32}, {1, 32}}) want.insert(want.end(), n, uint8_t(vnet));
        EXPECT_EQ(order, want) << "far source on vnet " << int(far);
    }
}

TEST(VirtualNetworks, RouterArbiterPrefersTheLowerVnetWhateverTheRoundRobin) {
    // Two input ports, two vnets, no dateline: buffer = port × 2 + vnet.
    const std::vector<PortInfo> ports(2, PortInfo{PeerKind::Router, 0, 0, -1, false});
    Router r(0, ports, 2, 1);
    PacketPool pool(64);
    pool.reserve(4);
    Link out(0, LinkParams{}, 2, 4, 0);
    auto queue = [&](uint8_t port, uint8_t vnet) {
        const PacketHandle h = pool.allocate();
        pool[h].out_port = 1;
        pool[h].out_vc = vnet;
        return r.enqueue(pool, r.buffer_index(port, vnet), h);
    };
    queue(0, 1);  // the round-robin pointer starts here
    queue(1, 1);
    queue(1, 0);
    EXPECT_EQ(r.arbitrate(1, out), int(r.buffer_index(1, 0)));
    r.dequeue(pool, r.buffer_index(1, 0));
    EXPECT_EQ(r.arbitrate(1, out), int(r.buffer_index(1, 1))) << "round-robin: the buffer after the last winner";
    r.dequeue(pool, r.buffer_index(1, 1));
    EXPECT_EQ(r.arbitrate(1, out), int(r.buffer_index(0, 1)));  // the pointer moves past it
    queue(1, 1);
    queue(0, 0);
    EXPECT_EQ(r.arbitrate(1, out), int(r.buffer_index(0, 0))) << "though round-robin would reach port 1 first";
    // No credit on vnet 0's channel: vnet 1 may go.
    for (int i = 0; i < 4; ++i) out.take_credit(0);
    EXPECT_EQ(r.buffer_vc(uint32_t(r.arbitrate(1, out))), 1);
}

// Random traffic over random vnets: FIFO per (source, destination, vnet), no
// deadlock on a torus with two vnets × two dateline channels.
NetworkParams two_vnets() {
    NetworkParams p;
    p.vnets = 2;
    p.input_buffers = 2;
    return p;
}

void vnet_traffic_in_order(const TopologySpec& spec, const NetworkParams& p = two_vnets()) {
    sim::Kernel k;
    Network net(k, spec, p);
    testing::vnet_traffic_checked(k, net, 200, Time::ms(10));
}

TEST(VirtualNetworks, FifoPerVnetUnderRandomTrafficTorus) { vnet_traffic_in_order(Mesh3D{{4, 4, 4}, {true, true, true}}); }
TEST(VirtualNetworks, FifoPerVnetUnderRandomTrafficFatTree) { vnet_traffic_in_order(FatTree::with_radix(8)); }
TEST(VirtualNetworks, FifoPerVnetOnADirectCable) { vnet_traffic_in_order(DirectCable{}); }

// ---- flow control in flits ------------------------------------------------------

// 8-byte flits, 8 bytes of overhead: a full 64-byte packet is 9 flits.
NetworkParams flits(uint32_t buffer_flits) {
    NetworkParams p;
    p.flit_bytes = 8;
    p.link.overhead_bytes = 8;
    p.input_buffers = p.receive_buffers = buffer_flits;
    return p;
}

TEST(FlitCredits, APacketTakesItsWireBytesInFlits) {
    const CreditUnit unit{8, 8};
    EXPECT_EQ(unit.cost(0), 1u);
    EXPECT_EQ(unit.cost(56), 8u);
    EXPECT_EQ(unit.cost(57), 9u);
    EXPECT_EQ(unit.cost(64), 9u);
    EXPECT_EQ((CreditUnit{0, 26}.cost(64)), 1u) << "SeaStar: one credit per packet";
    EXPECT_EQ((CreditUnit{16, 0}.cost(0)), 1u) << "even an empty packet takes a buffer";
}

TEST(FlitCredits, ABufferSmallerThanTheLargestPacketIsAnError) {
    sim::Kernel k;
    EXPECT_THROW(Network(k, Mesh3D{{2, 1, 1}, {}}, flits(8)), NetworkError);
    EXPECT_NO_THROW(Network(k, Mesh3D{{2, 1, 1}, {}}, flits(9)));
}

// The gaps between deliveries of `n` back-to-back packets of `len` bytes on a cable
// whose receiver has one full packet's worth of flits.
std::vector<Time> delivery_gaps(uint16_t len, int n) {
    sim::Kernel k;
    Network net(k, DirectCable{}, flits(9));
    TestNic a(net, 0), b(net, 1);
    for (int i = 0; i < n; ++i) a.send(make_frame<64>(0, 1, uint32_t(i), len));
    k.run_until(Time::us(20));
    EXPECT_EQ(b.log.size(), size_t(n));
    std::vector<Time> gaps;
    for (size_t i = 1; i < b.log.size(); ++i) gaps.push_back(b.log[i].at - b.log[i - 1].at);
    return gaps;
}

TEST(FlitCredits, CreditsAreCountedInFlitsNotPackets) {
    const NetworkParams p = flits(9);
    const Link link(0, p.link, 1, 1, 0);
    // A full packet takes all 9 flits: each waits for the last one's credit to return.
    for (Time g : delivery_gaps(64, 50)) ASSERT_EQ(g, link.serialization(64) + p.link.latency * 2);
    // Empty packets take one flit each: 9 in flight cover the round trip, so they
    // stream at the wire rate.
    for (Time g : delivery_gaps(0, 50)) ASSERT_EQ(g, link.serialization(0));
}

TEST(FlitCredits, RandomTrafficInOrderWithFlitBuffers) {
    NetworkParams p = flits(12);
    p.vnets = 2;
    vnet_traffic_in_order(Mesh3D{{4, 4, 4}, {true, true, true}}, p);
    vnet_traffic_in_order(FatTree::with_radix(8), p);
}

// ---- source routes -----------------------------------------------------------------

// A frame whose payload is `route` followed by `data_bytes` bytes that name it.
BasicPacket<64> routed(NodeId src, NodeId dst, uint32_t id, std::vector<uint8_t> route, uint16_t data_bytes) {
    BasicPacket<64> p = make_frame<64>(src, dst, id, 0);
    std::copy(route.begin(), route.end(), p.payload.begin());
    for (unsigned i = 0; i < data_bytes; ++i) p.payload[route.size() + i] = testing::payload_byte(src, id, i);
    p.route_bytes = uint8_t(route.size());
    p.length = uint16_t(route.size() + data_bytes);
    p.message_crc = crc32(std::span<const uint8_t>(p.payload.data() + route.size(), data_bytes));
    return p;
}

bool all_credits_back(Network& net) {
    for (const Link& l : net.links())
        for (uint32_t v = 0; v < l.vcs(); ++v)
            if (net.credits(l.id(), v) != l.credits_per_vc()) return false;
    return true;
}

constexpr uint8_t kPlusX = 1, kPlusY = 3, kNic = 0;

TEST(SourceRoutes, EachRouterConsumesItsByteAndTheReceiverGetsTheRest) {
    sim::Kernel k;
    const NetworkParams p;
    Network net(k, Mesh3D{{4, 4, 1}, {}}, p);
    TestNic a(net, 0), b(net, 5);
    // (0,0) to (1,1) y first: not the way dimension order goes.
    a.send(routed(0, 5, 7, {kPlusY, kPlusX, kNic}, 40));
    k.run_until(Time::us(2));
    ASSERT_EQ(b.log.size(), 1u);
    const auto& got = b.log[0].packet;
    EXPECT_EQ(got.length, 40u);
    EXPECT_EQ(got.route_bytes, 0u);
    EXPECT_TRUE(payload_intact(got));
    EXPECT_EQ(net.link(net.router(0).out_link(kPlusY)).stats().packets, 1u);
    EXPECT_EQ(net.link(net.router(0).out_link(kPlusX)).stats().packets, 0u);
    // The packet shrinks a byte a hop; cut-through, so only the last serialization counts.
    const Link link(0, p.link, 1, 1, 0);
    EXPECT_EQ(b.log[0].at, p.router_delay * 3 + p.link.latency * 4 + link.serialization(40));
    EXPECT_EQ(net.stats().bytes_delivered, 40u);
}

TEST(SourceRoutes, ChooseTheSpineOfAFatTree) {
    sim::Kernel k;
    const FatTree f{2, 2, 2};
    Network net(k, f);
    auto nics = make_nics(net);
    // Leaf 0's up-link to spine 1, spine 1's down-link to leaf 1, leaf 1's port to node 2.
    for (uint32_t i = 0; i < 10; ++i) nics[0]->send(routed(0, 2, i, {3, 1, 0}, 16));
    k.run_until(Time::us(5));
    ASSERT_EQ(nics[2]->log.size(), 10u);
    for (uint32_t i = 0; i < 10; ++i) EXPECT_EQ(nics[2]->log[i].packet.message_id, i) << "one path: in order";
    EXPECT_EQ(net.link(net.router(0).out_link(3)).stats().packets, 10u);
    EXPECT_EQ(net.link(net.router(0).out_link(2)).stats().packets, 0u);
    EXPECT_TRUE(all_credits_back(net));
}

TEST(SourceRoutes, FlitCreditsComeBackWhole) {
    // Each hop strips a byte: the credits an input gets back must be those the
    // longer packet took, or the buffers would leak away.
    sim::Kernel k;
    Network net(k, Mesh3D{{4, 4, 1}, {}}, flits(9));
    auto nics = make_nics(net);
    for (uint32_t i = 0; i < 200; ++i) nics[0]->send(routed(0, 15, i, {kPlusX, kPlusX, kPlusX, kPlusY, kPlusY, kPlusY, kNic}, 57));
    k.run_until(Time::us(100));
    EXPECT_EQ(nics[15]->log.size(), 200u);
    EXPECT_TRUE(all_credits_back(net));
}

TEST(SourceRoutes, BadRoutesAreNamedErrors) {
    sim::Kernel k;
    Network net(k, Mesh3D{{2, 2, 1}, {}});
    auto expect_error = [&](const BasicPacket<64>& p, const std::string& words) {
        try {
            net.inject(p.src, p);
            ADD_FAILURE() << "accepted: " << words;
        } catch (const NetworkError& e) {
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    expect_error(routed(0, 3, 0, {kPlusX, kNic}, 4), "leaves the network at node 1");
    expect_error(routed(0, 3, 0, {kPlusX, kPlusY}, 4), "ends at router 3");
    expect_error(routed(0, 3, 0, {2, kNic}, 4), "names port 2 of router 0, which has no cable");
    expect_error(routed(0, 1, 0, {kPlusX, kNic, kNic}, 4), "byte 1 leaves the network");
    BasicPacket<64> short_one = routed(0, 1, 0, {kPlusX, kNic}, 0);
    short_one.length = 1;
    expect_error(short_one, "longer than the payload");
    sim::Kernel k2;
    Network cable(k2, DirectCable{});
    EXPECT_THROW(cable.inject(0, routed(0, 1, 0, {kNic}, 4)), NetworkError);
    EXPECT_EQ(net.packets_in_flight(), 0u);
}

TEST(Invariants, EveryCreditComesBackAfterTraffic) {
    for (const NetworkParams& p : {NetworkParams{}, flits(12), two_vnets()}) {
        sim::Kernel k;
        Network net(k, Mesh3D::red_storm(3, 3, 4), p);
        auto nics = make_nics(net);
        sim::Random rng(8, "traffic");
        for (int i = 0; i < 50; ++i)
            for (NodeId s = 0; s < net.nodes(); ++s)
                nics[s]->send(make_frame<64>(s, NodeId(rng.below(net.nodes())), uint32_t(i), uint16_t(rng.below(65)),
                                             uint8_t(rng.below(p.vnets))));
        k.run_until(Time::ms(1));
        EXPECT_EQ(net.stats().packets_delivered, 50u * net.nodes());
        EXPECT_TRUE(all_credits_back(net));
    }
}

// ---- fat trees and random up-routes -------------------------------------------------

TEST(FatTrees, TwoNodesOnDifferentLeavesCrossTwoRouterStages) {
    for (const FatTree f : {FatTree{2, 1, 1}, FatTree{2, 1, 2}, FatTree{2, 2, 1}, FatTree{2, 2, 2}}) {
        Topology t(f);
        const NodeId far = f.nodes_per_leaf;  // first node of the second leaf
        EXPECT_EQ(t.hop_count(0, far), 2u);
        const auto path = t.path(0, far);
        ASSERT_EQ(path.size(), 3u);
        EXPECT_EQ(path[0], 0u);
        EXPECT_GE(path[1], f.leaves) << "through a spine";
        EXPECT_EQ(path[2], 1u);
        sim::Kernel k;
        Network net(k, f);
        TestNic a(net, 0), b(net, far);
        a.send(make_packet(0, far, 0, 64));
        b.send(make_packet(far, 0, 0, 64));
        k.run_until(Time::us(5));
        EXPECT_EQ(b.log.size(), 1u);
        EXPECT_EQ(a.log.size(), 1u);
    }
}

struct SpreadRun {
    std::vector<uint64_t> up_link_packets;  // leaf 0 -> spine s
    std::vector<std::pair<int64_t, uint32_t>> arrivals;  // (time ps, message id) at node 2
    bool in_order = true;
};

SpreadRun spread(bool random_up, uint64_t seed) {
    sim::Kernel k;
    NetworkParams p;
    p.seed = seed;
    const FatTree f{2, 2, 4};
    Network net(k, f, p);
    auto nics = make_nics(net);
    for (uint32_t i = 0; i < 400; ++i) {
        Packet pk = make_packet(NodeId(i % 2), 2, i, 64);
        pk.random_up_route = random_up;
        nics[i % 2]->send(pk);
    }
    k.run_until(Time::us(100));
    SpreadRun r;
    for (uint32_t s = 0; s < f.spines; ++s)
        r.up_link_packets.push_back(net.link(net.router(0).out_link(uint8_t(f.nodes_per_leaf + s))).stats().packets);
    uint32_t last[2] = {0, 0};
    bool first[2] = {true, true};
    for (const auto& got : nics[2]->log) {
        r.arrivals.emplace_back(got.at.ps(), got.packet.message_id);
        const NodeId s = got.packet.src;
        if (!first[s] && got.packet.message_id < last[s]) r.in_order = false;
        first[s] = false;
        last[s] = got.packet.message_id;
        EXPECT_TRUE(payload_intact(got.packet));
    }
    EXPECT_EQ(r.arrivals.size(), 400u);
    return r;
}

TEST(FatTrees, DeterministicUpRouteUsesOneSpinePerDestinationAndKeepsOrder) {
    const SpreadRun r = spread(false, 1);
    EXPECT_TRUE(r.in_order);
    // Destination 2 goes up to spine 2 mod 4.
    EXPECT_EQ(r.up_link_packets, (std::vector<uint64_t>{0, 0, 400, 0}));
}

TEST(FatTrees, RandomUpRouteSpreadsOverEverySpineDeterministicallyPerSeed) {
    const SpreadRun a = spread(true, 1), again = spread(true, 1), other = spread(true, 2);
    uint64_t total = 0;
    for (uint64_t n : a.up_link_packets) {
        EXPECT_GT(n, 50u) << "each of the four spines carries a share";
        total += n;
    }
    EXPECT_EQ(total, 400u);
    EXPECT_EQ(a.up_link_packets, again.up_link_packets);
    EXPECT_EQ(a.arrivals, again.arrivals) << "same seed, same traffic: the same run";
    EXPECT_NE(a.up_link_packets, other.up_link_packets) << "another seed draws other spines";
}

TEST(FatTrees, RandomUpRouteLeavesDownRoutesAndOtherTopologiesAlone) {
    // Within one leaf there is no up-going part: the flag changes nothing.
    sim::Kernel k;
    Network net(k, FatTree{2, 2, 4});
    TestNic a(net, 0), b(net, 1);
    Packet pk = make_packet(0, 1, 0, 8);
    pk.random_up_route = true;
    a.send(pk);
    k.run_until(Time::us(2));
    ASSERT_EQ(b.log.size(), 1u);
    for (uint32_t s = 0; s < 4; ++s) EXPECT_EQ(net.link(net.router(0).out_link(uint8_t(2 + s))).stats().packets, 0u);
    EXPECT_EQ(Topology(Mesh3D{{4, 4, 1}, {}}).up_ports(0).count, 0u);
    EXPECT_EQ(Topology(FatTree{2, 2, 4}).up_ports(4).count, 0u) << "a spine only goes down";
}

}  // namespace
}  // namespace niclab::net
