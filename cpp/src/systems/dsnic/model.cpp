// The DSNIC in the registry of systems: its node (PCI bus, board, driver), its
// transports (CSP channels) and its published results (published.json).
#include "niclab/systems/dsnic/model.hpp"

#include <algorithm>
#include <memory>

#include "niclab/system/config_error.hpp"
#include "niclab/system/pci_part.hpp"
#include "niclab/system/published.hpp"
#include "niclab/systems/ds/ds_network.hpp"
#include "niclab/systems/dsnic/transport.hpp"

namespace niclab::dsnic {

namespace {

class DsnicNode final : public system::NodeHardware {
public:
    DsnicNode(system::System& sys, uint32_t node)
        : bus_(sys.kernel(), sys.host_cpu(node), sys.host_memory(node), system::pci_params(sys.preset())),
          board_(sys.kernel(), bus_, sys.network(), board_params(sys.preset(), node)),
          driver_(board_, sys.host_cpu(node), bus_.params(), driver_params(sys.preset()), node) {}

    void counters(system::Counters& out) const override {
        const auto& b = board_.counters();
        out.add("nic.packets_sent", b.packets_sent);
        out.add("nic.packets_received", b.packets_received);
        out.add("nic.control_sent", b.control_sent);
        out.add("nic.control_received", b.control_received);
        out.add("nic.tx_dma_bytes", b.tx_dma_bytes);
        out.add("nic.rx_dma_bytes", b.rx_dma_bytes);
        out.add("nic.padding_bytes", b.padding_bytes);
        out.add("nic.link_refusals", b.link_refusals);
        out.add("nic.events", b.events);
        const auto& d = driver_.counters();
        out.add("driver.interrupts", d.interrupts);
        out.add("driver.events_handled", d.events);
        out.add("driver.packets_handled", d.packets);
        out.add("driver.capped_interrupts", d.capped);
        out.add("driver.syscalls", d.syscalls);
        out.add("driver.acks_sent", d.acks_sent);
        out.add("driver.credits_sent", d.credits_sent);
        out.add("driver.out_of_order", d.out_of_order);
    }

    Board& board() { return board_; }
    Driver& driver() { return driver_; }

private:
    bus::PciBus bus_;
    Board board_;
    Driver driver_;
};

DsnicNode& node_of(system::System& sys, size_t node) {
    auto* n = dynamic_cast<DsnicNode*>(&sys.hardware(node));
    if (!n) throw Error("node " + std::to_string(node) + " is a " + sys.model().name() + " node, not a DSNIC");
    return *n;
}

class DsnicModel final : public system::SystemModel {
public:
    std::string name() const override { return "dsnic"; }
    std::string summary() const override {
        return "CERN DSNIC (seed 003): S5933 PCI board with an STC101 DS link and FPGA FIFOs, interrupt-driven Linux driver, "
               "CSP channels, Pentium Pro 200 hosts";
    }
    std::string nic_family() const override { return "fixed-function"; }
    std::string default_preset() const override { return "dsnic"; }
    std::vector<system::ParameterDecl> parameters() const override { return dsnic::parameters(); }
    net::NetworkParams network_params(const system::Preset& preset) const override { return dsnic::network_params(preset); }
    nlohmann::json default_topology(uint32_t nodes) const override { return ds::default_topology(nodes); }
    std::unique_ptr<system::NodeHardware> build_node(system::System& sys, uint32_t node) const override {
        if (sys.node_count() > 1 && !sys.network()) throw system::ConfigError("topology", "the DSNIC needs a DS network between its nodes");
        return std::make_unique<DsnicNode>(sys, node);
    }
    std::vector<msg::TransportInfo> transports() const override { return transport_infos(); }
    std::unique_ptr<msg::Transport> open_transport(system::System& sys, uint32_t node, uint32_t peer, const std::string& transport,
                                                   uint64_t seed) const override {
        if (peer >= sys.node_count() || peer == node)
            throw msg::TransportError("node " + std::to_string(node) + ": no peer node " + std::to_string(peer));
        return make_transport(transport, node_of(sys, node).driver(), peer, seed, sys.host_memory(node));
    }
    const nlohmann::json& published() const override { return system::published("dsnic"); }
};

}  // namespace

net::NetworkParams network_params(const system::Preset& preset) {
    net::NetworkParams np = ds::network_params(preset);
    // The largest packet of the run is its packet size (net.max_payload bounds it).
    np.max_payload = packet_bytes(preset);
    // The network's receive side takes packets whole (its credits come back when the
    // tail is in, though the board hears of the header at once), so the NIC's link buffer
    // must hold one whole packet of the run's size (its characters in flow-control
    // flits); the DSNIC's own buffering is the 1 KB infifo behind it (board.hpp).
    const uint32_t chars = packet_bytes(preset) + uint32_t(preset.integer("net.header_bytes") + preset.integer("net.protocol_bytes"));
    np.receive_buffers = std::max(np.receive_buffers, (chars + np.flit_bytes - 1) / np.flit_bytes);
    return np;
}

const system::SystemModel& model() {
    static const DsnicModel m;
    return m;
}

Board& board(system::System& sys, size_t node) { return node_of(sys, node).board(); }
Driver& driver(system::System& sys, size_t node) { return node_of(sys, node).driver(); }

}  // namespace niclab::dsnic
