#include "niclab/net/topology.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "niclab/net/network_error.hpp"
#include "niclab/net/routing.hpp"

namespace niclab::net {

std::array<uint32_t, 3> Mesh3D::cube_like(uint32_t nodes) {
    std::array<uint32_t, 3> best{nodes, 1, 1};
    auto spread = [](const std::array<uint32_t, 3>& g) {
        const double mean = (double(g[0]) + g[1] + g[2]) / 3;
        return std::pow(g[0] - mean, 2) + std::pow(g[1] - mean, 2) + std::pow(g[2] - mean, 2);
    };
    for (uint32_t i = 1; i <= nodes; ++i)
        for (uint32_t j = 1; uint64_t(i) * j <= nodes; ++j)
            if (nodes % (i * j) == 0) {
                const std::array<uint32_t, 3> g{i, j, nodes / (i * j)};
                if (spread(g) < spread(best)) best = g;
            }
    return best;
}

namespace {
// Router ports are addressed by uint8_t, and 255 is plenty for any switch we model.
constexpr uint32_t kMaxPorts = 255;
}  // namespace

Topology::Topology(const TopologySpec& spec) : spec_(spec) {
    if (const auto* d = std::get_if<DirectCable>(&spec)) {
        if (d->cables == 0) throw NetworkError("a direct connection needs at least one cable");
        nodes_ = 2 * d->cables;
        node_router_.assign(nodes_, UINT32_MAX);
        node_port_.assign(nodes_, 0);
    } else if (const auto* m = std::get_if<Mesh3D>(&spec)) {
        build_mesh(*m);
        if (m->routing == MeshRouting::Table) {
            table_ = dimension_order_table(*this, *m);
        } else {
            mesh_ = *m;
            coords_.resize(nodes_);
            for (NodeId n = 0; n < nodes_; ++n) coords_[n] = coordinates(n);
        }
    } else if (const auto* f = std::get_if<FatTree>(&spec)) {
        build_fat_tree(*f);
        table_ = fat_tree_table(*this, *f);
    } else if (const auto* t = std::get_if<KaryNTree>(&spec)) {
        build_kary_ntree(*t);
        table_ = kary_ntree_table(*this, *t);
    } else {
        build_crossbar(std::get<Crossbar>(spec));
        table_.resize(nodes_);
        for (NodeId d = 0; d < nodes_; ++d) table_[d] = uint8_t(d);
    }
}

void Topology::connect(uint32_t a, uint8_t pa, uint32_t b, uint8_t pb, int8_t dim, bool wrap) {
    ports_[a][pa] = PortInfo{PeerKind::Router, b, pb, dim, wrap};
    ports_[b][pb] = PortInfo{PeerKind::Router, a, pa, dim, wrap};
}

void Topology::build_mesh(const Mesh3D& m) {
    uint64_t n = 1;
    for (uint32_t d : m.dims) {
        if (d == 0) throw NetworkError("mesh dimensions must be at least 1");
        n *= d;
    }
    // A routing table holds routers × nodes bytes: 1 GB at 32768 nodes. Computed
    // routes need none; their bound keeps the network's own state near 1 GB.
    const uint64_t limit = m.routing == MeshRouting::Table ? (1u << 15) : (1u << 18);
    if (n > limit)
        throw NetworkError("mesh of " + std::to_string(n) + " nodes is larger than " + std::to_string(limit) +
                           (m.routing == MeshRouting::Table ? " (computed routing allows more)" : ""));
    nodes_ = uint32_t(n);
    ports_.assign(nodes_, std::vector<PortInfo>(7));
    node_router_.resize(nodes_);
    node_port_.assign(nodes_, kNicPort);
    for (NodeId id = 0; id < nodes_; ++id) {
        node_router_[id] = id;
        ports_[id][kNicPort] = PortInfo{PeerKind::Node, id, 0, -1, false};
    }
    const uint32_t stride[3] = {1, m.dims[0], m.dims[0] * m.dims[1]};
    for (NodeId id = 0; id < nodes_; ++id) {
        const auto c = coordinates(id);
        for (int d = 0; d < 3; ++d) {
            const uint32_t size = m.dims[d];
            // Each router cables its + port to the next router's - port; the last
            // router of a ring closes it if the dimension wraps. A ring of one needs
            // no cable; a ring of two gets two parallel cables (one of them the wrap).
            const bool last = c[d] + 1 == size;
            if (size < 2 || (last && !m.wrap[d])) continue;
            const NodeId next = last ? id - c[d] * stride[d] : id + stride[d];
            connect(id, uint8_t(1 + 2 * d), next, uint8_t(2 + 2 * d), int8_t(d), last);
            if (last) vcs_ = 2;
        }
    }
}

void Topology::build_fat_tree(const FatTree& f) {
    if (f.leaves == 0 || f.nodes_per_leaf == 0 || f.spines == 0)
        throw NetworkError("fat tree needs at least one leaf, one node per leaf and one spine");
    if (f.nodes_per_leaf + f.spines > kMaxPorts || f.leaves > kMaxPorts)
        throw NetworkError("fat tree switch radix above 255 ports");
    nodes_ = f.leaves * f.nodes_per_leaf;
    ports_.resize(f.leaves + f.spines);
    for (uint32_t l = 0; l < f.leaves; ++l) ports_[l].resize(f.nodes_per_leaf + f.spines);
    for (uint32_t s = 0; s < f.spines; ++s) ports_[f.leaves + s].resize(f.leaves);
    node_router_.resize(nodes_);
    node_port_.resize(nodes_);
    for (NodeId id = 0; id < nodes_; ++id) {
        const uint32_t leaf = id / f.nodes_per_leaf;
        const uint8_t port = uint8_t(id % f.nodes_per_leaf);
        node_router_[id] = leaf;
        node_port_[id] = port;
        ports_[leaf][port] = PortInfo{PeerKind::Node, id, 0, -1, false};
    }
    for (uint32_t l = 0; l < f.leaves; ++l)
        for (uint32_t s = 0; s < f.spines; ++s)
            connect(l, uint8_t(f.nodes_per_leaf + s), f.leaves + s, uint8_t(l), -1, false);
    up_ports_.assign(ports_.size(), PortRange{});
    for (uint32_t l = 0; l < f.leaves; ++l) up_ports_[l] = PortRange{uint8_t(f.nodes_per_leaf), uint8_t(f.spines)};
}

// Switch <w, l> (level l, index w in base-k digits) sends up port k + j to switch
// <w', l+1>, w' being w with digit l replaced by j, arriving at that switch's down
// port w_l. Node p hangs off leaf p / k at port p mod k.
void Topology::build_kary_ntree(const KaryNTree& t) {
    if (t.arity < 1 || t.levels < 1) throw NetworkError("k-ary n-tree needs arity and levels of at least 1");
    if (2 * t.arity > kMaxPorts) throw NetworkError("k-ary n-tree switch radix above 255 ports");
    uint64_t n = 1;
    for (uint32_t l = 0; l < t.levels; ++l) {
        n *= t.arity;
        if (n > (1u << 18)) throw NetworkError("k-ary n-tree of more than 2^18 nodes");
    }
    nodes_ = uint32_t(n);
    const uint32_t k = t.arity, per_level = nodes_ / k;
    ports_.assign(size_t(per_level) * t.levels, {});
    for (uint32_t l = 0; l < t.levels; ++l)
        for (uint32_t w = 0; w < per_level; ++w) ports_[size_t(l) * per_level + w].resize(l + 1 < t.levels ? 2 * k : k);
    node_router_.resize(nodes_);
    node_port_.resize(nodes_);
    for (NodeId id = 0; id < nodes_; ++id) {
        node_router_[id] = id / k;
        node_port_[id] = uint8_t(id % k);
        ports_[id / k][id % k] = PortInfo{PeerKind::Node, id, 0, -1, false};
    }
    up_ports_.assign(ports_.size(), PortRange{});
    uint32_t weight = 1;  // k^l: the value of digit l of a switch index
    for (uint32_t l = 0; l + 1 < t.levels; ++l, weight *= k)
        for (uint32_t w = 0; w < per_level; ++w) {
            const uint32_t digit = (w / weight) % k;
            const uint32_t self = l * per_level + w;
            up_ports_[self] = PortRange{uint8_t(k), uint8_t(k)};
            for (uint32_t j = 0; j < k; ++j) {
                const uint32_t above = (l + 1) * per_level + w - digit * weight + j * weight;
                connect(self, uint8_t(k + j), above, uint8_t(digit), -1, false);
            }
        }
}

void Topology::build_crossbar(const Crossbar& c) {
    if (c.ports < 1 || c.ports > kMaxPorts) throw NetworkError("crossbar of " + std::to_string(c.ports) + " ports outside 1..255");
    nodes_ = c.ports;
    ports_.assign(1, std::vector<PortInfo>(nodes_));
    node_router_.assign(nodes_, 0);
    node_port_.resize(nodes_);
    for (NodeId id = 0; id < nodes_; ++id) {
        node_port_[id] = uint8_t(id);
        ports_[0][id] = PortInfo{PeerKind::Node, id, 0, -1, false};
    }
}

uint8_t Topology::computed_route(uint32_t router, NodeId dst) const {
    return dimension_order_port(mesh_, coords_[router], coords_[dst]);
}

std::array<uint32_t, 3> Topology::coordinates(NodeId n) const {
    const auto* m = std::get_if<Mesh3D>(&spec_);
    if (!m) throw NetworkError("coordinates are defined on a mesh or torus only");
    return {n % m->dims[0], (n / m->dims[0]) % m->dims[1], n / (m->dims[0] * m->dims[1])};
}

std::vector<uint32_t> Topology::path(NodeId src, NodeId dst) const {
    if (src >= nodes_ || dst >= nodes_) throw NetworkError("path: node id out of range");
    std::vector<uint32_t> routers;
    if (ports_.empty()) return routers;
    uint32_t r = router_of(src);
    for (;;) {
        routers.push_back(r);
        if (routers.size() > ports_.size()) throw std::logic_error("routing loop");
        const PortInfo& out = ports_[r][route(r, dst)];
        if (out.kind == PeerKind::Node) {
            if (out.peer != dst) throw std::logic_error("routing table ejects at the wrong node");
            return routers;
        }
        if (out.kind != PeerKind::Router) throw std::logic_error("routing table names an unconnected port");
        r = out.peer;
    }
}

uint32_t Topology::hop_count(NodeId src, NodeId dst) const {
    const auto p = path(src, dst);
    return p.empty() ? 0 : uint32_t(p.size() - 1);
}

}  // namespace niclab::net
