#pragma once
// Topologies: which router port connects to which router or node, and the routing
// tables built on that graph (routing.hpp). Every node has one NIC port into its
// router (or, on a direct cable, straight into the other NIC).
//
//  - DirectCable: NICs cabled in pairs, no router: node 2i to node 2i+1 (`cables`
//    pairs; one pair is two NICs on one cable). A system whose nodes own several
//    ports (the T9000's four links) cables each of a node's ports to the peer's.
//  - Mesh3D: X×Y×Z routers, one node each, with a wrap flag per dimension. Red Storm
//    is a mesh in x and y and a torus in z only, because of its classified/
//    unclassified switching cabinets and cable lengths (seed 001 §5.1).
//  - FatTree: two levels; leaf switches with nodes below and one uplink to each
//    spine switch (FatTree::with_radix(k) is the classic full-bisection tree of
//    radix-k switches: k leaves × k/2 nodes, k/2 spines).
//  - KaryNTree: the multi-level fat tree of Petrini & Vanneschi: k^n nodes, n levels
//    of k^(n-1) switches with k ports down and k up (the top level only down). Arity 2
//    is a binary fat tree like Arctic's four-port routers (seed 002 §2 L91).
//  - Crossbar: one switch with a port per node (a single C104, seed 003).
//
// JSON descriptions of these ("kind" and each kind's keys) are read by the registry
// in topology_registry.hpp.
//
// Node ids map to mesh coordinates x-fastest: id = x + X·(y + Y·z). Router ids equal
// node ids on a mesh; on a fat tree leaves come first, then spines; on a k-ary n-tree
// level by level from the leaves, each level's switches by index.
#include <array>
#include <cstdint>
#include <variant>
#include <vector>

#include "niclab/net/packet.hpp"

namespace niclab::net {

struct DirectCable {
    uint32_t cables = 1;  // pairs of NICs: node 2i is cabled to node 2i + 1
};

// How a mesh router finds its output port, the same dimension-order port either way
// (routing.hpp). Computed from the two coordinates: a few compares per hop and 12 bytes
// per node. Tabled: one load per hop from routers × nodes bytes - 107 MB for Red Storm's
// 10,368 nodes, with which its system took 2.6 s to build instead of 1.2 s - kept to
// compare (a spec's "routing": "table").
enum class MeshRouting : uint8_t { Table, Computed };

struct Mesh3D {
    std::array<uint32_t, 3> dims{1, 1, 1};
    std::array<bool, 3> wrap{false, false, false};
    MeshRouting routing = MeshRouting::Computed;
    // Red Storm's shape: torus only in z (seed 001 §5.1).
    static Mesh3D red_storm(uint32_t x, uint32_t y, uint32_t z) { return {{x, y, z}, {false, false, true}}; }
    // The most cube-like x × y × z of `nodes`: of the factorisations i × j × k, the first
    // (by i, then j) with the least spread (the variance of i, j, k). Ember's rule for its
    // Halo3D process grid, and the SeaStar's mesh when a spec names none.
    static std::array<uint32_t, 3> cube_like(uint32_t nodes);
};

struct FatTree {
    uint32_t leaves = 2;
    uint32_t nodes_per_leaf = 2;
    uint32_t spines = 2;
    static FatTree with_radix(uint32_t k) { return {k, k / 2, k / 2}; }
};

struct KaryNTree {
    uint32_t arity = 2;   // k: ports down (and up) per switch
    uint32_t levels = 2;  // n: switch levels; k^n nodes
};

struct Crossbar {
    uint32_t ports = 2;  // one node per port
};

using TopologySpec = std::variant<DirectCable, Mesh3D, FatTree, KaryNTree, Crossbar>;

enum class PeerKind : uint8_t { None, Router, Node };

struct PortInfo {
    PeerKind kind = PeerKind::None;
    uint32_t peer = 0;       // router id or node id
    uint8_t peer_port = 0;   // the port of the peer router this cable ends at
    int8_t dim = -1;         // mesh dimension of the cable (-1: NIC port or fat tree)
    bool wrap = false;       // the wrap-around cable of a torus ring (the dateline)
};

// Consecutive router ports, e.g. the up-links of a fat-tree leaf.
struct PortRange {
    uint8_t first = 0;
    uint8_t count = 0;
};

class Topology {
public:
    static constexpr uint8_t kNicPort = 0;  // port 0 of a mesh router faces its node

    explicit Topology(const TopologySpec& spec);

    const TopologySpec& spec() const { return spec_; }
    uint32_t nodes() const { return nodes_; }
    uint32_t routers() const { return uint32_t(ports_.size()); }
    // Virtual channels per link: 2 when a ring wraps (dateline deadlock avoidance), else 1.
    uint32_t vcs() const { return vcs_; }

    const std::vector<PortInfo>& ports(uint32_t router) const { return ports_[router]; }
    // The router node `n` is cabled to, and the port. Direct cable: no router.
    uint32_t router_of(NodeId n) const { return node_router_[n]; }
    uint8_t port_of(NodeId n) const { return node_port_[n]; }

    // Mesh coordinates of a node (x fastest). Only for Mesh3D.
    std::array<uint32_t, 3> coordinates(NodeId n) const;

    // Output port of `router` toward `dst`: the routing table, or dimension order
    // computed from the coordinates (Mesh3D::routing; the same ports either way).
    uint8_t route(uint32_t router, NodeId dst) const {
        return table_.empty() ? computed_route(router, dst) : table_[size_t(router) * nodes_ + dst];
    }
    // The up-going ports of `router`, any of which reaches every node not below it
    // (a fat-tree leaf's spine links); empty where there is no such choice.
    PortRange up_ports(uint32_t router) const { return up_ports_.empty() ? PortRange{} : up_ports_[router]; }

    // Routers a packet from src to dst passes, in order (empty on a direct cable).
    std::vector<uint32_t> path(NodeId src, NodeId dst) const;
    // Router-to-router cables on that path: the Manhattan (or ring) distance on a mesh.
    uint32_t hop_count(NodeId src, NodeId dst) const;

private:
    void build_mesh(const Mesh3D& m);
    void build_fat_tree(const FatTree& f);
    void build_kary_ntree(const KaryNTree& t);
    void build_crossbar(const Crossbar& c);
    void connect(uint32_t a, uint8_t pa, uint32_t b, uint8_t pb, int8_t dim, bool wrap);
    uint8_t computed_route(uint32_t router, NodeId dst) const;

    TopologySpec spec_;
    uint32_t nodes_ = 0;
    uint32_t vcs_ = 1;
    std::vector<std::vector<PortInfo>> ports_;
    std::vector<uint32_t> node_router_;
    std::vector<uint8_t> node_port_;
    std::vector<uint8_t> table_;  // routers × nodes; empty when routes are computed
    std::vector<std::array<uint32_t, 3>> coords_;  // per node, for computed routes
    Mesh3D mesh_{};                                 // the mesh of computed routes
    std::vector<PortRange> up_ports_;  // per router; empty off fat trees
};

}  // namespace niclab::net
