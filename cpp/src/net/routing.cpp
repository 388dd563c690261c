#include "niclab/net/routing.hpp"

namespace niclab::net {

uint8_t dimension_order_port(const Mesh3D& mesh, const std::array<uint32_t, 3>& here,
                             const std::array<uint32_t, 3>& there) {
    for (int d = 0; d < 3; ++d) {
        if (here[d] == there[d]) continue;
        bool plus = there[d] > here[d];
        if (mesh.wrap[d]) {
            const uint32_t size = mesh.dims[d];
            const uint32_t forward = (there[d] + size - here[d]) % size;
            plus = forward <= size - forward;
        }
        return uint8_t(plus ? 1 + 2 * d : 2 + 2 * d);
    }
    return Topology::kNicPort;
}

std::vector<uint8_t> dimension_order_table(const Topology& topo, const Mesh3D& mesh) {
    const uint32_t n = topo.nodes();
    std::vector<uint8_t> table(size_t(n) * n, Topology::kNicPort);
    for (uint32_t r = 0; r < n; ++r) {
        const auto here = topo.coordinates(r);
        for (NodeId dst = 0; dst < n; ++dst)
            table[size_t(r) * n + dst] = dimension_order_port(mesh, here, topo.coordinates(dst));
    }
    return table;
}

std::vector<uint8_t> fat_tree_table(const Topology& topo, const FatTree& tree) {
    const uint32_t n = topo.nodes();
    std::vector<uint8_t> table(size_t(topo.routers()) * n, 0);
    for (uint32_t leaf = 0; leaf < tree.leaves; ++leaf)
        for (NodeId dst = 0; dst < n; ++dst)
            table[size_t(leaf) * n + dst] = dst / tree.nodes_per_leaf == leaf
                                                ? uint8_t(dst % tree.nodes_per_leaf)
                                                : uint8_t(tree.nodes_per_leaf + dst % tree.spines);
    for (uint32_t s = 0; s < tree.spines; ++s)
        for (NodeId dst = 0; dst < n; ++dst)
            table[size_t(tree.leaves + s) * n + dst] = uint8_t(dst / tree.nodes_per_leaf);
    return table;
}

std::vector<uint8_t> kary_ntree_table(const Topology& topo, const KaryNTree& tree) {
    const uint32_t n = topo.nodes(), k = tree.arity, per_level = n / k;
    std::vector<uint8_t> table(size_t(topo.routers()) * n, 0);
    for (uint32_t l = 0; l < tree.levels; ++l) {
        uint32_t weight = 1;  // k^l
        for (uint32_t i = 0; i < l; ++i) weight *= k;
        for (uint32_t w = 0; w < per_level; ++w) {
            // Switch <w, l> reaches the nodes whose digits above l equal w's digits from l on.
            const uint32_t reach = w / weight;
            for (NodeId dst = 0; dst < n; ++dst) {
                const uint32_t digit = (dst / weight) % k;
                const bool below = dst / (weight * k) == reach;
                table[size_t(l * per_level + w) * n + dst] = uint8_t(below ? digit : k + digit);
            }
        }
    }
    return table;
}

}  // namespace niclab::net
