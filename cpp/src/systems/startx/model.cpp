// The StarT-X in the registry of systems: its node (PCI bus, NIU, Arctic port, JAM, JAM
// RPC), its transports (transport.hpp) and its published results (published.json).
#include "niclab/systems/startx/model.hpp"

#include <memory>

#include "niclab/system/config_error.hpp"
#include "niclab/system/published.hpp"
#include "niclab/systems/startx/arctic_port.hpp"
#include "niclab/systems/startx/transport.hpp"

namespace niclab::startx {

namespace {

// The port of a one-node system: there is nowhere to send to.
class NoNetworkPort final : public NetworkPort {
public:
    void attach(PortListener&) override {}
    bool can_inject(Priority) const override { return true; }
    void inject(const WireMessage& m) override {
        throw StartxError("node " + std::to_string(m.source) + " sent a message, but a one-node system has no network");
    }
    void receive_space_freed(Priority) override {}
};

class StartxNode final : public system::NodeHardware {
public:
    StartxNode(system::System& sys, uint32_t node)
        : bus_(sys.kernel(), sys.host_cpu(node), sys.host_memory(node), pci_params(sys.preset())),
          port_(sys.network() ? std::unique_ptr<NetworkPort>(std::make_unique<ArcticPort>(*sys.network(), node))
                              : std::make_unique<NoNetworkPort>()),
          niu_(sys.kernel(), bus_, *port_, niu_params(sys.preset(), node)),
          // the window is mapped before JAM is built on it
          jam_((bus_.map(kNiuWindowBase, niu_.window_bytes(), niu_), niu_), bus_, kNiuWindowBase, jam_params(sys.preset())),
          rpc_(jam_, rpc_params(sys.preset())),
          vi_bytes_(uint64_t(sys.preset().integer("jam.vi_rx_buffer_bytes"))) {}

    bool faulted() const override { return niu_.faulted(); }
    void counters(system::Counters& out) const override {
        const NiuCounters& c = niu_.counters();
        auto sum = [](const auto& per_priority) {
            uint64_t s = 0;
            for (uint64_t v : per_priority) s += v;
            return s;
        };
        out.add("nic.messages_launched", sum(c.messages_launched));
        out.add("nic.messages_injected", sum(c.messages_injected));
        out.add("nic.messages_accepted", sum(c.messages_accepted));
        out.add("nic.messages_refused", sum(c.messages_refused));
        out.add("nic.crc_errors", c.crc_errors);
        out.add("nic.pio_words_written", c.words_written);
        out.add("nic.pio_words_read", c.words_read);
        out.add("nic.status_reads", c.status_reads);
        out.add("nic.vi_messages_sent", c.vi_messages_sent);
        out.add("nic.vi_messages_received", c.vi_messages_received);
        out.add("nic.rdma_bytes_sent", c.rdma_bytes_sent);
        out.add("nic.rdma_bytes_received", c.rdma_bytes_received);
        out.add("nic.interrupts_raised", c.interrupts);
        const auto& j = jam_.counters();
        out.add("driver.messages_sent", j.messages_sent);
        out.add("driver.messages_received", j.messages_received);
        out.add("driver.calls", j.driver_calls);
        out.add("driver.blocked_polls", j.blocked_polls);
    }
    std::string fault_report() const override { return niu_.fault(); }

    Jam& jam() { return jam_; }
    JamRpc& rpc() { return rpc_; }
    RdmaBoard& board() { return board_; }  // node 0's serves the whole system
    uint64_t vi_bytes() const { return vi_bytes_; }
    StreamReceivers& stream_receivers() { return stream_receivers_; }

private:
    bus::PciBus bus_;
    std::unique_ptr<NetworkPort> port_;
    Niu niu_;
    Jam jam_;
    JamRpc rpc_;
    RdmaBoard board_;
    uint64_t vi_bytes_;
    StreamReceivers stream_receivers_;
};

StartxNode& node_of(system::System& sys, size_t node) {
    auto* n = dynamic_cast<StartxNode*>(&sys.hardware(node));
    if (!n) throw Error("node " + std::to_string(node) + " is a " + sys.model().name() + " node, not a StarT-X");
    return *n;
}

class StartxModel final : public system::SystemModel {
public:
    std::string name() const override { return "startx"; }
    std::string summary() const override {
        return "MIT StarT-X (seed 002): fixed-function PCI NIU, JAM PIO/VI/RDMA, Arctic fat tree, SUN E5000 hosts";
    }
    std::string nic_family() const override { return "fixed-function"; }
    std::string default_preset() const override { return "startx"; }
    std::vector<system::ParameterDecl> parameters() const override { return startx::parameters(); }
    net::NetworkParams network_params(const system::Preset& preset) const override { return startx::network_params(preset); }
    nlohmann::json default_topology(uint32_t nodes) const override { return startx::default_topology(nodes); }
    std::unique_ptr<system::NodeHardware> build_node(system::System& sys, uint32_t node) const override {
        if (sys.node_count() > kMaxJamNodes)
            throw system::ConfigError("nodes", "JAM names senders in 8 bits: at most 256 StarT-X nodes");
        return std::make_unique<StartxNode>(sys, node);
    }
    std::vector<msg::TransportInfo> transports() const override { return transport_infos(); }
    std::unique_ptr<msg::Transport> open_transport(system::System& sys, uint32_t node, uint32_t peer,
                                                   const std::string& transport, uint64_t seed) const override {
        if (peer >= sys.node_count() || peer == node)
            throw msg::TransportError("node " + std::to_string(node) + ": no peer node " + std::to_string(peer));
        StartxNode& n = node_of(sys, node);
        TransportContext tc{n.jam(), &n.rpc(), &node_of(sys, 0).board(), n.vi_bytes(), &n.stream_receivers()};
        return make_transport(transport, tc, peer, seed);
    }
    const nlohmann::json& published() const override { return system::published("startx"); }
};

}  // namespace

// Seed 002 §6.1.1 L202 runs Table 1 "along a fixed network path over two router stages".
// We read that as a two-level fat tree whose nodes 0 and 1 sit under different leaves:
// the path climbs a leaf (stage 1) to a spine (stage 2) and comes down the other leaf.
// Arctic routers have four ports (a binary fat tree: two down, two up), so up to four
// nodes get one leaf each with two spines (the random up-route has a choice); larger
// systems put two nodes on a leaf (an odd count keeps one per leaf), nodes 0 and 1 then
// sharing a leaf. Two levels is what net::FatTree builds.
nlohmann::json default_topology(uint32_t nodes) {
    if (nodes < 2) return nullptr;
    const uint32_t per_leaf = (nodes <= 4 || nodes % 2) ? 1 : 2;
    return {{"kind", "fat_tree"}, {"leaves", nodes / per_leaf}, {"nodes_per_leaf", per_leaf}, {"spines", 2}};
}

const system::SystemModel& model() {
    static const StartxModel m;
    return m;
}

Jam& jam(system::System& sys, size_t node) { return node_of(sys, node).jam(); }
JamRpc& jam_rpc(system::System& sys, size_t node) { return node_of(sys, node).rpc(); }

}  // namespace niclab::startx
