#pragma once
// Random traffic over random vnets from every node, and the checks every such run
// must pass: FIFO per (source, destination, vnet), payloads intact, all delivered,
// nothing left in the network.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "net_test_nic.hpp"
#include "niclab/sim/random.hpp"

namespace niclab::net::testing {

inline void vnet_traffic_checked(sim::Kernel& k, Network& net, int per_node, Time until, uint64_t seed = 5) {
    auto nics = make_nics(net);
    sim::Random rng(seed, "traffic");
    for (int i = 0; i < per_node; ++i)
        for (NodeId s = 0; s < net.nodes(); ++s) {
            const NodeId d = net.topology().routers() ? NodeId(rng.below(net.nodes())) : 1 - s;
            nics[s]->send(make_frame<64>(s, d, uint32_t(i), uint16_t(rng.below(65)), uint8_t(rng.below(2))));
        }
    k.run_until(until);
    std::map<std::tuple<NodeId, NodeId, uint8_t>, int64_t> last;
    size_t delivered = 0;
    for (NodeId d = 0; d < net.nodes(); ++d)
        for (const auto& got : nics[d]->log) {
            auto [it, fresh] = last.try_emplace({got.packet.src, d, got.packet.vnet}, -1);
            ASSERT_LT(it->second, int64_t(got.packet.message_id));
            it->second = got.packet.message_id;
            ASSERT_TRUE(payload_intact(got.packet));
            ++delivered;
        }
    EXPECT_EQ(delivered, size_t(per_node) * net.nodes());
    EXPECT_EQ(net.packets_in_flight(), 0u);
}

}  // namespace niclab::net::testing
