// Network-only simulation speed: a 1,024-node Red Storm-shaped network (8×8×16,
// torus in z) under uniform random traffic, every NIC injecting full 64-byte packets
// to random destinations as fast as its credits allow; and the 512-terminal Clos of
// C104s on DS links (seed 003 §6.4) with wormhole switching, 28-byte packets. Reports
// kernel events and delivered packets per host second; the first once more with a
// packet capture of every node.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "niclab/net/capture.hpp"
#include "niclab/net/network.hpp"
#include "niclab/sim/random.hpp"

using namespace niclab;

namespace {

class UniformSource : public net::NetworkEndpoint {
public:
    UniformSource(net::Network& n, net::NodeId node, uint16_t length = net::Packet::kMaxPayload)
        : net_(n), node_(node), rng_(node, "bench.dst") {
        n.attach(node, this);
        packet_.src = node;
        packet_.length = length;
        packet_.head = packet_.tail = true;
    }
    bool deliver(const net::PacketView&) override { return true; }
    void injection_ready() override { pump(); }
    void pump() {
        for (;;) {
            packet_.dst = net::NodeId(rng_.below(net_.nodes() - 1));
            if (packet_.dst >= node_) ++packet_.dst;  // never to itself
            if (!net_.inject(node_, packet_)) return;
            ++packet_.message_id;
        }
    }

private:
    net::Network& net_;
    net::NodeId node_;
    sim::Random rng_;
    net::Packet packet_;
};

void run_random_traffic(benchmark::State& state, net::Network& network, uint16_t length) {
    sim::Kernel& kernel = network.kernel();
    std::vector<std::unique_ptr<UniformSource>> nics;
    for (net::NodeId n = 0; n < network.nodes(); ++n) nics.push_back(std::make_unique<UniformSource>(network, n, length));
    for (auto& nic : nics) nic->pump();
    kernel.run_until(Time::us(5));  // past the start-up transient
    const uint64_t events0 = kernel.events_fired();
    const uint64_t packets0 = network.stats().packets_delivered;
    const Time slice = Time::us(state.range(0));
    Time t = kernel.now();
    for (auto _ : state) {
        t += slice;
        kernel.run_until(t);
    }
    const double events = double(kernel.events_fired() - events0);
    const double packets = double(network.stats().packets_delivered - packets0);
    state.counters["events_per_s"] = benchmark::Counter(events, benchmark::Counter::kIsRate);
    state.counters["packets_per_s"] = benchmark::Counter(packets, benchmark::Counter::kIsRate);
    state.counters["events_per_packet"] = events / packets;
    state.counters["sim_us"] = (t - Time::us(5)).as_us();
    // Offered load is saturating; this is what the network carried per node.
    state.counters["accepted_MBps_per_node"] = packets * length / (t - Time::us(5)).as_us() / network.nodes();
}

void BM_RandomTrafficMesh1024(benchmark::State& state) {
    sim::Kernel kernel;
    net::Network network(kernel, net::Mesh3D::red_storm(8, 8, 16));
    run_random_traffic(state, network, net::Packet::kMaxPayload);
}
BENCHMARK(BM_RandomTrafficMesh1024)->Arg(10)->Unit(benchmark::kMillisecond);

// The same with a packet capture tapping every node (each packet recorded leaving and
// arriving: two pcapng records) into /dev/null: what capturing costs the simulation,
// without the disk.
void BM_RandomTrafficMesh1024Captured(benchmark::State& state) {
    sim::Kernel kernel;
    net::Network network(kernel, net::Mesh3D::red_storm(8, 8, 16));
    net::CaptureSpec spec;
    spec.path = "/dev/null";
    for (net::NodeId n = 0; n < network.nodes(); ++n) spec.nodes.push_back({"node " + std::to_string(n), {n}});
    net::Capture capture(network, spec);
    run_random_traffic(state, network, net::Packet::kMaxPayload);
}
BENCHMARK(BM_RandomTrafficMesh1024Captured)->Arg(10)->Unit(benchmark::kMillisecond);

void BM_RandomTrafficClos512DsLinks(benchmark::State& state) {
    // The ds-link-c104 part: 100 Mbit/s, 10-bit characters, EOP and FCTs, 1 us C104s.
    net::NetworkParams p;
    p.link.wire_bits_per_s = 100'000'000;
    p.link.token_bits = 10;
    p.link.end_bits = 4;
    p.link.fct_bits = 4;
    p.link.overhead_bytes = 2;
    p.link.latency = Time::ns(20);
    p.router_delay = Time::us(1);
    p.switching = net::Switching::Wormhole;
    p.flit_bytes = 8;
    p.input_buffers = 8;
    p.receive_buffers = 8;
    p.max_payload = 32;
    sim::Kernel kernel;
    net::Network network(kernel, net::FatTree{32, 16, 16}, p);
    run_random_traffic(state, network, 28);
}
BENCHMARK(BM_RandomTrafficClos512DsLinks)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
