// Moving packets allocates nothing once the network is built and the kernel's
// event pool has grown to the working set: packets live in the Network's pool,
// events capture handles. This binary counts operator new calls.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "niclab/net/capture.hpp"
#include "niclab/net/network.hpp"
#include "niclab/sim/random.hpp"

#include "counting_new.hpp"

namespace niclab::net {
namespace {

// Injects to random destinations whenever it has a credit, accepts everything.
class Saturator : public NetworkEndpoint {
public:
    Saturator(Network& net, NodeId node, bool heads = false) : net_(net), node_(node), rng_(node, "dst"), heads_(heads) {
        net.attach(node, this);
    }
    bool deliver(const PacketView&) override { return true; }
    bool wants_heads() const override { return heads_; }
    bool head_arrived(const PacketView&, Time) override {
        ++heads_told;
        return true;
    }
    uint64_t heads_told = 0;
    void injection_ready() override { pump(); }
    void pump() {
        Packet p;
        p.src = node_;
        p.length = 64;
        p.head = p.tail = true;
        do {
            p.dst = NodeId(rng_.below(net_.nodes()));
            p.message_id = next_id_;
        } while (net_.inject(node_, p) && ++next_id_);
    }

private:
    Network& net_;
    NodeId node_;
    sim::Random rng_;
    bool heads_;
    uint32_t next_id_ = 0;
};

// Every node saturates the network; after a 20 us warm-up (pools reach their working
// set) allocations are counted for 40 us. Returns the packets delivered meanwhile.
uint64_t saturate_counting(sim::Kernel& k, Network& net, std::vector<std::unique_ptr<Saturator>>& nics, bool heads = false) {
    for (NodeId n = 0; n < net.nodes(); ++n) nics.push_back(std::make_unique<Saturator>(net, n, heads));
    for (auto& nic : nics) nic->pump();
    k.run_until(Time::us(20));
    const uint64_t before = net.stats().packets_delivered;
    g_counting = true;
    k.run_until(Time::us(60));
    g_counting = false;
    return net.stats().packets_delivered - before;
}

TEST(NetNoAlloc, SaturatedTorusAllocatesNothingPerPacket) {
    sim::Kernel k;
    NetworkParams params;
    params.link.bit_error_rate = 1e-5;  // retries take the error path too
    Network net(k, Mesh3D::red_storm(4, 4, 4), params);
    std::vector<std::unique_ptr<Saturator>> nics;
    EXPECT_GT(saturate_counting(k, net, nics), 10'000u);
    EXPECT_GT(net.stats().retries, 0u);
    EXPECT_EQ(g_allocations, 0u);
}

TEST(NetNoAlloc, CapturingASaturatedTorusAllocatesNothingPerPacket) {
    sim::Kernel k;
    NetworkParams params;
    params.link.bit_error_rate = 1e-5;  // retried packets get a comment
    Network net(k, Mesh3D::red_storm(4, 4, 4), params);
    CaptureSpec spec;
    spec.path = "/dev/null";
    for (NodeId n = 0; n < net.nodes(); ++n) spec.nodes.push_back({"node " + std::to_string(n), {n}});
    spec.links = {0, 1, 2};
    Capture capture(net, spec);
    std::vector<std::unique_ptr<Saturator>> nics;
    EXPECT_GT(saturate_counting(k, net, nics), 10'000u);
    EXPECT_GT(capture.packets(), 20'000u);
    EXPECT_EQ(g_allocations, 0u);
}

TEST(NetNoAlloc, SaturatedWormholeMeshAllocatesNothingPerPacket) {
    sim::Kernel k;
    NetworkParams params;
    params.switching = Switching::Wormhole;
    params.flit_bytes = 16;  // 90 wire bytes: 6 flits, buffers of 2
    params.input_buffers = 2;
    params.receive_buffers = 6;
    Network net(k, Mesh3D{{4, 4, 4}, {}}, params);
    std::vector<std::unique_ptr<Saturator>> nics;
    EXPECT_GT(saturate_counting(k, net, nics), 1'000u);
    EXPECT_EQ(g_allocations, 0u);
}

TEST(NetNoAlloc, HeadArrivalAllocatesNothingPerPacket) {
    sim::Kernel k;
    NetworkParams params;
    params.switching = Switching::Wormhole;
    params.flit_bytes = 16;
    params.input_buffers = 2;
    params.receive_buffers = 6;
    params.link.bit_error_rate = 1e-5;
    Network net(k, Mesh3D{{4, 4, 4}, {}}, params);
    std::vector<std::unique_ptr<Saturator>> nics;
    EXPECT_GT(saturate_counting(k, net, nics, true), 1'000u);
    uint64_t heads = 0;
    for (auto& nic : nics) heads += nic->heads_told;
    EXPECT_GE(heads, net.stats().packets_delivered);
    EXPECT_EQ(g_allocations, 0u);
}

}  // namespace
}  // namespace niclab::net
