// Topologies and their routing tables: every pair is reachable, the path length is
// the Manhattan (or ring) distance, and dimension order is x, then y, then z.
#include <gtest/gtest.h>

#include <cstdlib>

#include "niclab/net/network_error.hpp"
#include "niclab/net/topology.hpp"

namespace niclab::net {
namespace {

uint32_t ring_distance(uint32_t a, uint32_t b, uint32_t size, bool wrap) {
    const uint32_t d = a > b ? a - b : b - a;
    return wrap ? std::min(d, size - d) : d;
}

// Checks every (src, dst) pair: the path ends at dst's router, consecutive routers are
// cabled, dimensions are corrected in x, y, z order, and the hop count is the distance.
void check_mesh(const Mesh3D& m) {
    Topology t(m);
    ASSERT_EQ(t.nodes(), m.dims[0] * m.dims[1] * m.dims[2]);
    for (NodeId s = 0; s < t.nodes(); ++s) {
        for (NodeId d = 0; d < t.nodes(); ++d) {
            const auto cs = t.coordinates(s), cd = t.coordinates(d);
            uint32_t want = 0;
            for (int k = 0; k < 3; ++k) want += ring_distance(cs[k], cd[k], m.dims[k], m.wrap[k]);
            const auto path = t.path(s, d);
            ASSERT_EQ(path.front(), t.router_of(s));
            ASSERT_EQ(path.back(), t.router_of(d));
            ASSERT_EQ(t.hop_count(s, d), want) << s << " -> " << d;
            int last_dim = 0;
            for (size_t i = 1; i < path.size(); ++i) {
                const auto a = t.coordinates(path[i - 1]), b = t.coordinates(path[i]);
                int changed = -1, n_changed = 0;
                for (int k = 0; k < 3; ++k)
                    if (a[k] != b[k]) { changed = k; ++n_changed; }
                ASSERT_EQ(n_changed, 1) << "a hop moves along exactly one dimension";
                ASSERT_GE(changed, last_dim) << "dimension order x, y, z";
                last_dim = changed;
            }
        }
    }
}

TEST(Topology, MeshEveryPairReachableAtManhattanDistance) { check_mesh(Mesh3D{{4, 4, 4}, {false, false, false}}); }

TEST(Topology, TorusInZEveryPairReachableAtRingDistance) { check_mesh(Mesh3D::red_storm(3, 3, 4)); }

TEST(Topology, FullTorusAndDegenerateDimensions) {
    check_mesh(Mesh3D{{3, 2, 5}, {true, true, true}});
    check_mesh(Mesh3D{{5, 1, 1}, {false, false, false}});
    check_mesh(Mesh3D{{1, 1, 1}, {true, true, true}});
}

TEST(Topology, TorusTakesTheShorterWayRound) {
    Topology t(Mesh3D::red_storm(3, 3, 4));
    // z = 0 to z = 3 on a ring of 4: one hop over the wrap cable, not three.
    EXPECT_EQ(t.hop_count(0, 27), 1u);
    const auto& out = t.ports(0)[t.route(0, 27)];
    EXPECT_TRUE(out.wrap);
    EXPECT_EQ(out.peer, 27u);
    EXPECT_EQ(t.vcs(), 2u);
    EXPECT_EQ(Topology(Mesh3D{{4, 4, 4}, {}}).vcs(), 1u);
}

TEST(Topology, NodeIdsAreXFastest) {
    Topology t(Mesh3D{{4, 3, 2}, {}});
    EXPECT_EQ(t.coordinates(0), (std::array<uint32_t, 3>{0, 0, 0}));
    EXPECT_EQ(t.coordinates(1), (std::array<uint32_t, 3>{1, 0, 0}));
    EXPECT_EQ(t.coordinates(4), (std::array<uint32_t, 3>{0, 1, 0}));
    EXPECT_EQ(t.coordinates(12), (std::array<uint32_t, 3>{0, 0, 1}));
    EXPECT_EQ(t.coordinates(23), (std::array<uint32_t, 3>{3, 2, 1}));
}

TEST(Topology, FatTreeEveryPairReachable) {
    const FatTree f = FatTree::with_radix(8);  // 8 leaves × 4 nodes, 4 spines
    Topology t(f);
    ASSERT_EQ(t.nodes(), 32u);
    ASSERT_EQ(t.routers(), 12u);
    for (NodeId s = 0; s < t.nodes(); ++s)
        for (NodeId d = 0; d < t.nodes(); ++d) {
            const bool same_leaf = s / 4 == d / 4;
            const auto path = t.path(s, d);
            ASSERT_EQ(t.hop_count(s, d), same_leaf ? 0u : 2u);
            if (!same_leaf) {
                EXPECT_EQ(path[1], f.leaves + d % f.spines) << "destination-mod-k spine";
            }
        }
}

TEST(Topology, DirectCableHasNoRouter) {
    Topology t(DirectCable{});
    EXPECT_EQ(t.nodes(), 2u);
    EXPECT_EQ(t.routers(), 0u);
    EXPECT_TRUE(t.path(0, 1).empty());
    EXPECT_EQ(t.hop_count(0, 1), 0u);
}

TEST(Topology, BadSpecsAreNetworkErrors) {
    EXPECT_THROW(Topology(Mesh3D{{0, 4, 4}, {}}), NetworkError);
    EXPECT_THROW(Topology(FatTree{4, 0, 2}), NetworkError);
    EXPECT_THROW(Topology(FatTree{4, 200, 100}), NetworkError);
    EXPECT_THROW(Topology(DirectCable{}).coordinates(0), NetworkError);
    EXPECT_THROW(Topology(Mesh3D{{2, 2, 2}, {}}).path(0, 8), NetworkError);
}

TEST(Topology, ComputedDimensionOrderRoutesAreTheTablesRoutes) {
    for (Mesh3D m : {Mesh3D{{4, 4, 4}, {}}, Mesh3D::red_storm(3, 3, 4), Mesh3D{{3, 2, 5}, {true, true, true}},
                     Mesh3D{{5, 1, 1}, {}}}) {
        EXPECT_EQ(m.routing, MeshRouting::Computed) << "the default";
        const Topology computed(m);
        m.routing = MeshRouting::Table;
        const Topology tabled(m);
        for (uint32_t r = 0; r < tabled.routers(); ++r)
            for (NodeId d = 0; d < tabled.nodes(); ++d) ASSERT_EQ(computed.route(r, d), tabled.route(r, d)) << r << " -> " << d;
        check_mesh(m);
    }
}

TEST(Topology, ComputedRoutesNeedNoTableSoMeshesMayBeLarger) {
    Mesh3D big{{64, 32, 32}, {false, false, true}, MeshRouting::Table};  // 65536 nodes: a 4 GB table
    EXPECT_THROW(Topology{big}, NetworkError);
    big.routing = MeshRouting::Computed;
    const Topology t(big);
    EXPECT_EQ(t.nodes(), 65536u);
    EXPECT_EQ(t.hop_count(0, 65535), 63u + 31u + 1u);
}

}  // namespace
}  // namespace niclab::net
