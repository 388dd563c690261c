// The registry of topology kinds: JSON descriptions to specs, each kind checking its
// own keys; the k-ary n-tree and crossbar kinds built from it and routed.
#include <gtest/gtest.h>

#include <set>

#include "net_test_nic.hpp"
#include "niclab/net/topology_registry.hpp"

namespace niclab::net {
namespace {

using nlohmann::json;
using testing::make_frame;
using testing::make_nics;

std::string error_key(const json& j, uint32_t nodes = 4) {
    try {
        topology_from_json(j, nodes);
    } catch (const TopologyConfigError& e) {
        return e.key_path();
    }
    return "";
}

TEST(TopologyRegistry, ListsTheBuiltInKinds) {
    const auto kinds = topology_kinds();
    for (const char* k : {"direct", "mesh", "torus", "fat_tree", "kary_ntree", "crossbar"})
        EXPECT_NE(std::find(kinds.begin(), kinds.end(), k), kinds.end()) << k;
}

TEST(TopologyRegistry, BuildsEachKind) {
    EXPECT_TRUE(std::holds_alternative<DirectCable>(topology_from_json({{"kind", "direct"}}, 2)));
    // Direct cables default to one per two network ports, or say how many.
    EXPECT_EQ(std::get<DirectCable>(topology_from_json({{"kind", "direct"}}, 8)).cables, 4u);
    EXPECT_EQ(std::get<DirectCable>(topology_from_json({{"kind", "direct"}, {"cables", 2}}, 2)).cables, 2u);
    const auto torus = std::get<Mesh3D>(topology_from_json({{"kind", "torus"}, {"dims", {2, 3, 4}}}, 24));
    EXPECT_EQ(torus.dims, (std::array<uint32_t, 3>{2, 3, 4}));
    EXPECT_EQ(torus.wrap, (std::array<bool, 3>{true, true, true}));
    const auto mesh = std::get<Mesh3D>(
        topology_from_json({{"kind", "mesh"}, {"dims", {2, 2, 2}}, {"wrap", {false, false, true}}}, 8));
    EXPECT_EQ(mesh.wrap, (std::array<bool, 3>{false, false, true}));
    EXPECT_EQ(mesh.routing, MeshRouting::Computed) << "dimension order from the coordinates unless a table is asked for";
    EXPECT_EQ(std::get<Mesh3D>(topology_from_json({{"kind", "torus"}, {"dims", {2, 2, 2}}, {"routing", "table"}}, 8)).routing,
              MeshRouting::Table);
    EXPECT_EQ(std::get<Mesh3D>(topology_from_json({{"kind", "mesh"}, {"dims", {2, 2, 2}}, {"routing", "computed"}}, 8)).routing,
              MeshRouting::Computed);
    const auto f = std::get<FatTree>(
        topology_from_json({{"kind", "fat_tree"}, {"leaves", 4}, {"nodes_per_leaf", 2}, {"spines", 2}}, 8));
    EXPECT_EQ(topology_nodes(f), 8u);
    const auto t = std::get<KaryNTree>(topology_from_json({{"kind", "kary_ntree"}, {"arity", 2}, {"levels", 3}}, 8));
    EXPECT_EQ(topology_nodes(t), 8u);
    EXPECT_EQ(std::get<Crossbar>(topology_from_json({{"kind", "crossbar"}}, 32)).ports, 32u) << "one port per node";
    EXPECT_EQ(std::get<Crossbar>(topology_from_json({{"kind", "crossbar"}, {"ports", 5}}, 32)).ports, 5u);
}

TEST(TopologyRegistry, ErrorsNameTheKey) {
    EXPECT_EQ(error_key(json::object()), "topology.kind");
    EXPECT_EQ(error_key({{"kind", "hypercube"}}), "topology.kind");
    EXPECT_EQ(error_key({{"kind", "mesh"}}), "topology.dims");
    EXPECT_EQ(error_key({{"kind", "mesh"}, {"dims", {2, 0, 1}}}), "topology.dims[1]");
    EXPECT_EQ(error_key({{"kind", "mesh"}, {"dims", {2, 2, 1}}, {"wrap", {1, 0, 0}}}), "topology.wrap[0]");
    EXPECT_EQ(error_key({{"kind", "torus"}, {"dims", {2, 2, 1}}, {"routing", "adaptive"}}), "topology.routing");
    EXPECT_EQ(error_key({{"kind", "mesh"}, {"dims", {2, 2, 1}}, {"spines", 2}}), "topology.spines")
        << "a key of another kind is unknown here";
    EXPECT_EQ(error_key({{"kind", "fat_tree"}, {"leaves", 2}, {"nodes_per_leaf", 2}}), "topology.spines");
    EXPECT_EQ(error_key({{"kind", "kary_ntree"}, {"arity", "two"}, {"levels", 2}}), "topology.arity");
    EXPECT_EQ(error_key({{"kind", "kary_ntree"}, {"arity", 2}}), "topology.levels");
    EXPECT_EQ(error_key({{"kind", "crossbar"}, {"ports", 256}}), "topology.ports");
    EXPECT_EQ(error_key({{"kind", "direct"}, {"dims", {1, 1, 1}}}), "topology.dims");
    EXPECT_EQ(error_key({{"kind", "kary_ntree"}, {"arity", 127}, {"levels", 3}}), "topology.levels") << "too large";
}

TEST(TopologyRegistry, ANewKindCanBeRegistered) {
    register_topology({"ring_of_two", "", [](const json&, uint32_t) -> TopologySpec {
                           return Mesh3D{{2, 1, 1}, {true, false, false}};
                       }});
    EXPECT_EQ(topology_nodes(topology_from_json({{"kind", "ring_of_two"}}, 2)), 2u);
}

// ---- k-ary n-trees and crossbars -------------------------------------------------

TEST(KaryNTree, ShapeAndHopCounts) {
    const Topology t(KaryNTree{2, 3});  // a binary fat tree of 8 nodes, 3 levels of 4 switches
    EXPECT_EQ(t.nodes(), 8u);
    EXPECT_EQ(t.routers(), 12u);
    EXPECT_EQ(t.ports(0).size(), 4u) << "Arctic-like: two down, two up";
    EXPECT_EQ(t.ports(8).size(), 2u) << "the top level only goes down";
    EXPECT_EQ(t.hop_count(0, 1), 0u) << "same leaf";
    EXPECT_EQ(t.hop_count(0, 2), 2u) << "up one level and down";
    EXPECT_EQ(t.hop_count(0, 7), 4u) << "up to the top and down";
    EXPECT_EQ(t.up_ports(0).count, 2u);
    EXPECT_EQ(t.up_ports(8).count, 0u);
    // Every pair has a path, and the routers on it go up then down.
    for (NodeId s = 0; s < 8; ++s)
        for (NodeId d = 0; d < 8; ++d) {
            const auto path = t.path(s, d);
            ASSERT_FALSE(path.empty());
            EXPECT_EQ(path.front(), s / 2);
            EXPECT_EQ(path.back(), d / 2);
        }
}

TEST(KaryNTree, LargerArityReachesEveryNode) {
    const Topology t(KaryNTree{4, 3});
    EXPECT_EQ(t.nodes(), 64u);
    EXPECT_EQ(t.routers(), 48u);
    for (NodeId s = 0; s < 64; s += 7)
        for (NodeId d = 0; d < 64; ++d) EXPECT_LE(t.hop_count(s, d), 4u);
}

TEST(KaryNTree, DeliversInOrderAndRandomUpRoutesUseEverySpine) {
    sim::Kernel k;
    Network net(k, KaryNTree{2, 3});
    auto nics = make_nics(net);
    for (uint32_t i = 0; i < 200; ++i) {
        auto p = make_frame<64>(0, 7, i, 64);
        nics[0]->send(p);
    }
    k.run_until(Time::ms(1));
    ASSERT_EQ(nics[7]->log.size(), 200u);
    for (uint32_t i = 0; i < 200; ++i) EXPECT_EQ(nics[7]->log[i].packet.message_id, i);
    // Random up-routes: the top-level switches all see traffic.
    for (uint32_t i = 0; i < 200; ++i) {
        auto p = make_frame<64>(1, 6, i, 64);
        p.random_up_route = true;
        nics[1]->send(p);
    }
    k.run_until(Time::ms(2));
    EXPECT_EQ(nics[6]->log.size(), 200u);
    std::set<uint32_t> used;
    for (uint32_t r = 8; r < 12; ++r)
        for (uint8_t p = 0; p < net.router(r).port_count(); ++p)
            if (net.link(net.router(r).out_link(p)).stats().packets > 0) used.insert(r);
    EXPECT_EQ(used.size(), 4u);
}

TEST(Crossbar, OneSwitchBetweenEveryPair) {
    sim::Kernel k;
    NetworkParams p;
    Network net(k, Crossbar{5}, p);
    auto nics = make_nics(net);
    EXPECT_EQ(net.topology().routers(), 1u);
    nics[4]->send(make_frame<64>(4, 2, 0, 64));
    k.run_until(Time::ms(1));
    ASSERT_EQ(nics[2]->log.size(), 1u);
    const Link& link = net.link(0);
    EXPECT_EQ(nics[2]->log[0].at, p.router_delay + p.link.latency * 2 + link.serialization(64));
}

}  // namespace
}  // namespace niclab::net
