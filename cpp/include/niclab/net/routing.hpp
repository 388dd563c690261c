#pragma once
// Table-based, deterministic routing. Each router's table maps a destination node
// to one output port, computed once at build time, so every (src, dst) pair has one
// fixed path and FIFO links deliver its packets in order (seed 001 §2: "table-based
// routers provide a fixed path between all nodes, resulting in in-order delivery").
//
//  - Mesh / torus: dimension order, x then y then z; on a wrapped dimension the
//    shorter way round the ring (ties go the + way).
//  - Fat tree: up to spine (dst mod spines), then down: destination-mod-k routing,
//    which spreads destinations over the spines yet keeps one path per pair. A
//    packet flagged random_up_route instead takes a seeded random spine on the way
//    up (Topology::up_ports, Network::route); the way down is the table's. The
//    k-ary n-tree routes the same way over n levels.
//
// Deadlock: dimension order is deadlock-free on a mesh. A torus ring is a cycle of
// buffers, so tori use two virtual channels with a dateline at the wrap cable
// (Dally & Seitz): a packet enters each dimension on VC 0 and moves to VC 1 when it
// crosses the wrap cable, which it does at most once per dimension. Up/down routing
// on the fat tree has no cycles. Virtual networks multiply the channels (each vnet
// has its own pair), and no packet changes vnet, so each vnet is deadlock-free alone.
#include <array>
#include <cstdint>
#include <vector>

#include "niclab/net/topology.hpp"

namespace niclab::net {

// The port dimension order takes at the router at `here` toward `there`: the first
// dimension that differs, the shorter way round a ring; the NIC port when equal.
uint8_t dimension_order_port(const Mesh3D& mesh, const std::array<uint32_t, 3>& here,
                             const std::array<uint32_t, 3>& there);

// Router-major table (routers × nodes) of output ports.
std::vector<uint8_t> dimension_order_table(const Topology& topo, const Mesh3D& mesh);
std::vector<uint8_t> fat_tree_table(const Topology& topo, const FatTree& tree);
// Up to the lowest common ancestor level, then down by the destination's digits. The
// way up takes up port k + (digit l of dst) at level l: destination-mod-k again.
std::vector<uint8_t> kary_ntree_table(const Topology& topo, const KaryNTree& tree);

// The virtual channel a packet uses on `out`, having arrived on `in` over `in_vc`.
inline uint8_t select_vc(const PortInfo& in, uint8_t in_vc, const PortInfo& out) {
    if (out.wrap) return 1;
    return (in.dim >= 0 && in.dim == out.dim) ? in_vc : 0;
}

}  // namespace niclab::net
