// Character-coded DS links (IEEE 1355, seed 003): 10-bit data tokens, a 4-bit end
// token, flow-control tokens on the reverse cable; the Clos topology of C104 switches
// and the C104's adaptive up-routing.
#include <gtest/gtest.h>

#include <memory>

#include "net_test_nic.hpp"
#include "niclab/net/network_error.hpp"
#include "niclab/net/topology_registry.hpp"

namespace niclab::net {
namespace {

using testing::make_frame;
using testing::make_nics;
using testing::payload_intact;

// A DS link: 100 Mbit/s, 10-bit characters, 4-bit EOP, one 4-bit FCT per 8
// characters; 2 header characters per packet (seed 003 L85, L95; IEEE 1355).
NetworkParams ds(Switching switching = Switching::VirtualCutThrough) {
    NetworkParams p;
    p.link = testing::ds_link(2);
    p.flit_bytes = 8;
    p.input_buffers = 8;
    p.receive_buffers = 64;
    p.max_payload = 32;
    p.switching = switching;
    return p;
}

TEST(DsLink, APacketIsTenBitsACharacterPlusItsEndToken) {
    const NetworkParams p = ds();
    const Link link(0, p.link, 1, 1, 0, p.max_payload);
    // (2 + 32) characters × 10 bits + 4 bits of EOP at 10 ns a bit.
    EXPECT_EQ(link.serialization(32), Time::ns(3440));
    EXPECT_EQ(link.serialization(0), Time::ns(240));
    EXPECT_EQ(link.characters(32), 35u);
}

// The seed's theoretical maximum of a DS link with 2-byte headers, 9.26 MB/s (seed
// 003 L85), is 32 bytes per 345.5 bits: 344 for the packet and, on average, 3/8 of an
// FCT for the 3-character acknowledgement coming back. Node 1 answers every packet
// with an empty one; the data rate over 1000 packets in steady state is that.
TEST(DsLink, AcknowledgedStreamReachesTheTheoreticalNinePointTwoSixMBs) {
    sim::Kernel k;
    Network net(k, DirectCable{}, ds());
    auto nics = make_nics(net);
    nics[1]->accept = [&](const PacketView& p) {
        if (p.length) k.schedule_in(Time{}, [&, id = p.message_id] { nics[1]->send(make_frame<64>(1, 0, id, 0)); });
        return true;
    };
    for (uint32_t i = 0; i < 1200; ++i) nics[0]->send(make_frame<64>(0, 1, i, 32));
    k.run_until(Time::ms(10));
    ASSERT_EQ(nics[1]->log.size(), 1200u);
    ASSERT_EQ(nics[0]->log.size(), 1200u);
    const double seconds = (nics[1]->log[1100].at - nics[1]->log[100].at).as_us() * 1e-6;
    const double mb_s = 1000 * 32 / seconds / 1e6;
    EXPECT_NEAR(mb_s, 32.0 / 3.455, 0.002) << mb_s;
    for (const auto& d : nics[1]->log) EXPECT_TRUE(payload_intact(d.packet));
    // Without the acknowledgements' FCTs the data link carries 344 bits a packet.
    EXPECT_GT(net.link(net.injection_link(0)).stats().busy, Time::ns(1200 * 3440));
}

TEST(DsLink, FlowControlTokensGoOnTheReverseCable) {
    sim::Kernel k;
    Network net(k, DirectCable{}, ds());
    auto nics = make_nics(net);
    // 16 packets of 32 bytes: 16 × 35 = 560 characters, 70 FCTs of 40 ns back.
    for (uint32_t i = 0; i < 16; ++i) nics[0]->send(make_frame<64>(0, 1, i, 32));
    k.run_until(Time::ms(1));
    EXPECT_EQ(nics[1]->log.size(), 16u);
    EXPECT_EQ(net.link(net.injection_link(1)).stats().busy, Time::ns(70 * 40));
    EXPECT_EQ(net.link(net.injection_link(1)).stats().packets, 0u);
}

// FCTs interleave with a worm's characters: a held link pays them when its tail passes;
// an idle one sends them at once; whole tokens only, the rest carried over.
TEST(DsLink, FlowControlTokensWaitForAWormAndCarryTheRemainder) {
    const NetworkParams p = ds();
    Link link(0, p.link, 1, 1, 0, p.max_payload);
    link.send_flow_control(Time::us(1), 7);  // under 8 characters: no token yet
    EXPECT_EQ(link.busy_until(), Time{});
    link.send_flow_control(Time::us(1), 9);  // 16 in all: two tokens of 40 ns
    EXPECT_EQ(link.busy_until(), Time::us(1) + Time::ns(80));
    link.hold();
    link.send_flow_control(Time::us(2), 8);
    EXPECT_TRUE(link.held());
    link.release_at(Time::us(5));
    EXPECT_EQ(link.busy_until(), Time::us(5) + Time::ns(40));
    EXPECT_EQ(link.stats().busy, Time::ns(120));
}

TEST(DsLink, TheSameOverC104sWithWormholeSwitching) {
    sim::Kernel k;
    NetworkParams p = ds(Switching::Wormhole);
    p.router_delay = Time::us(1);
    Network net(k, Crossbar{4}, p);
    auto nics = make_nics(net);
    for (uint32_t i = 0; i < 50; ++i) nics[0]->send(make_frame<64>(0, 3, i, 32));
    k.run_until(Time::ms(1));
    ASSERT_EQ(nics[3]->log.size(), 50u);
    // One C104 between: 1 µs of switching and two cables, then one serialization.
    EXPECT_EQ(nics[3]->log[0].at, Time::us(1) + Time::ns(40) + Time::ns(3440));
    // Back to back, the cables pace them at one serialization each: the FCTs ride the
    // idle return cables and delay nothing.
    EXPECT_EQ(nics[3]->log[49].at - nics[3]->log[48].at, Time::ns(3440));
}

TEST(Clos, FiveHundredTwelveTerminalsOfC104s) {
    const TopologySpec spec = topology_from_json({{"kind", "clos"}, {"terminals", 512}}, 512);
    const auto* tree = std::get_if<FatTree>(&spec);
    ASSERT_NE(tree, nullptr);
    EXPECT_EQ(tree->leaves, 32u);
    EXPECT_EQ(tree->nodes_per_leaf, 16u);
    EXPECT_EQ(tree->spines, 16u);
    const Topology topo(spec);
    EXPECT_EQ(topo.routers(), 48u);
    EXPECT_EQ(topo.nodes(), 512u);
    // Every switch has 32 ports in use.
    for (uint32_t r = 0; r < topo.routers(); ++r) EXPECT_EQ(topo.ports(r).size(), 32u) << r;
}

TEST(Clos, RefusesWhatItCannotBuild) {
    auto message = [](const nlohmann::json& t) {
        try {
            topology_from_json(t, 512);
        } catch (const TopologyConfigError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message({{"kind", "clos"}, {"terminals", 40}}).find("40 terminals do not fill 32-port switches"),
              std::string::npos);
    EXPECT_NE(message({{"kind", "clos"}, {"terminals", 1024}}).find("at most 512 terminals"), std::string::npos);
    EXPECT_NE(message({{"kind", "clos"}, {"ports", 7}}).find("topology.ports"), std::string::npos);
}

// Two leaves of two terminals, two centre switches: node 0 streams to node 2 while
// node 1 streams to node 3. Table routing sends both flows up one spine each
// (destination mod 2); adaptive routing spreads them over whichever is free, which
// lets packets of one flow overtake each other.
struct ClosRun {
    std::vector<std::vector<uint32_t>> order;  // per node: message ids in arrival order
    std::array<uint64_t, 2> up_packets{};       // leaf 0's two up-links
};

ClosRun run_clos(bool adaptive) {
    sim::Kernel k;
    NetworkParams p = ds(Switching::Wormhole);
    p.router_delay = Time::us(1);
    p.adaptive_up_routing = adaptive;
    Network net(k, FatTree{2, 2, 2}, p);
    auto nics = make_nics(net);
    for (uint32_t i = 0; i < 200; ++i) {
        nics[0]->send(make_frame<64>(0, 2, i, uint16_t(i % 3 ? 32 : 4)));
        nics[1]->send(make_frame<64>(1, 2 + (i % 2), i, 32));
    }
    k.run_until(Time::ms(20));
    ClosRun out;
    out.order.resize(4);
    for (NodeId n = 0; n < 4; ++n)
        for (const auto& d : nics[n]->log) {
            EXPECT_TRUE(payload_intact(d.packet));
            if (d.packet.src == 0) out.order[n].push_back(d.packet.message_id);
        }
    for (uint8_t s = 0; s < 2; ++s) out.up_packets[s] = net.link(net.router(0).out_link(uint8_t(2 + s))).stats().packets;
    return out;
}

bool in_order(const std::vector<uint32_t>& ids) {
    for (size_t i = 1; i < ids.size(); ++i)
        if (ids[i] < ids[i - 1]) return false;
    return true;
}

TEST(Clos, AdaptiveRoutingUsesEveryFreeSpineAndMayReorder) {
    const ClosRun table = run_clos(false);
    ASSERT_EQ(table.order[2].size(), 200u);
    EXPECT_TRUE(in_order(table.order[2]));
    const ClosRun adaptive = run_clos(true);
    ASSERT_EQ(adaptive.order[2].size(), 200u);  // nothing lost
    EXPECT_GT(adaptive.up_packets[0], 0u);
    EXPECT_GT(adaptive.up_packets[1], 0u);
    EXPECT_FALSE(in_order(adaptive.order[2]));
    // Deterministic all the same.
    EXPECT_EQ(run_clos(true).order, adaptive.order);
}

}  // namespace
}  // namespace niclab::net
