// GRIM on Myrinet in the registry of systems: its node (PCI bus, LANai NIC, GRIM
// endpoint), its transports (am, rm-p, rm-v) and its published results. Node 0 holds
// what the whole system shares: the global handler server (§4.4.1) and the transports'
// directory.
#include <map>
#include <memory>

#include "niclab/fw/grim_fw.h"
#include "niclab/system/config_error.hpp"
#include "niclab/system/group_model.hpp"
#include "niclab/system/pci_part.hpp"
#include "niclab/system/published.hpp"
#include "niclab/systems/grim/grim.hpp"
#include "niclab/systems/grim/group_messaging.hpp"
#include "niclab/systems/grim/sockets.hpp"
#include "niclab/systems/grim/transport.hpp"

namespace niclab::grim {

namespace {

// The source route from `src` to every node: the output port at each switch on the
// way, from the network's routing table (GRIM reads static routes from its
// configuration files, App. C.1.2; a table built deadlock-free is what they hold).
std::vector<std::vector<uint8_t>> routes_from(const net::Network* network, uint32_t src, uint32_t nodes) {
    std::vector<std::vector<uint8_t>> r(nodes);
    if (!network) return r;
    const net::Topology& t = network->topology();
    for (uint32_t dst = 0; dst < nodes; ++dst) {
        if (dst == src) continue;
        for (uint32_t router : t.path(src, dst)) r[dst].push_back(t.route(router, dst));
    }
    return r;
}

class GrimNode;
GrimNode& node_of(system::System& sys, size_t node);

class GrimNode final : public system::NodeHardware {
public:
    GrimNode(system::System& sys, uint32_t node)
        : sys_(sys),
          bus_(sys.kernel(), sys.host_cpu(node), sys.host_memory(node), system::pci_params(sys.preset())),
          nic_(sys.kernel(), lanai_config(sys.preset(), node, uint32_t(sys.node_count())), bus_, sys.network()),
          transports_(sys.kernel()) {
        // Bit errors on the cable from the switch into this NI. Myrinet has no link-level
        // retry (net.link_retry 0 in the presets): a flipped bit reaches the NI, whose CRC
        // check finds it (lanai.h). assumption: only the cables into NIs flip bits. On the
        // way to a switch a flip could hit the route byte the switch steers by, and the
        // network model has no misrouting (link.cpp flips no header bit for the same
        // reason); every packet still crosses one such cable, ACKs included.
        const double ber = bit_error_rate(sys.preset());
        if (ber > 0 && sys.network()) sys.network()->set_bit_error_rate(sys.network()->ejection_link(node), ber);
    }

    bool active() const override { return nic_.nic().cpu().active(); }
    nic::EmbeddedNic* embedded_nic() override { return &nic_.nic(); }
    bool faulted() const override { return nic_.nic().faulted(); }
    std::string fault_report() const override {
        auto f = nic_.nic().fault();
        return f ? f->what() : "";
    }
    void counters(system::Counters& out) const override {
        out.add("nic.host_dma_transfers", nic_.host_dma().transfers());
        out.add("nic.host_dma_bytes", nic_.host_dma().bytes());
        out.add("nic.send_messages", nic_.net_send().messages());
        out.add("nic.send_packets", nic_.net_send().packets());
        out.add("nic.recv_messages", nic_.net_recv().messages());
        out.add("nic.recv_refusals", nic_.net_recv().refusals());
        out.add("nic.recv_crc_errors", nic_.net_recv().crc_errors());
        if (!endpoint_) return;
        for (const auto& name : Endpoint::counter_names()) out.add("grim." + name, endpoint_->counter(name.c_str()));
    }

    LanaiNic& lanai() { return nic_; }
    HandlerServer& handler_server() { return handler_server_; }  // node 0's serves the system
    TransportDirectory& transports() { return transports_; }     // node 0's serves the system
    McDirectory& multicast_trees() { return multicast_trees_; }  // node 0's serves the system (§8.1.4 L2063)
    Multicast& multicast() {
        Endpoint& ep = endpoint();
        if (!multicast_ || &multicast_->endpoint() != &ep)
            multicast_ = std::make_unique<Multicast>(ep, node_of(sys_, 0).multicast_trees(),
                                                     [this](uint32_t n) -> Multicast& { return node_of(sys_, n).multicast(); });
        return *multicast_;
    }
    // The endpoint on logical channel `lc`: LC 0's is the driver's set-up, the others
    // are opened next to it on first use.
    Endpoint& endpoint(uint32_t lc = 0) {
        if (endpoint_ && loads_ != nic_.nic().loads()) {
            endpoint_->retire();
            retired_.push_back(std::move(endpoint_));  // its firmware was reloaded; transports may still hold it
            for (auto& [k, ep] : others_) retired_.push_back(std::move(ep));
            others_.clear();
            if (sockets_) retired_sockets_.push_back(std::move(sockets_));  // its handlers were the old endpoint's
        }
        if (!endpoint_) {
            const uint32_t node = nic_.node();
            if (!nic_.nic().image())
                throw Error("node " + std::to_string(node) + " runs no firmware; GRIM's endpoints need the grim firmware");
            endpoint_ = std::make_unique<Endpoint>(nic_, sys_.host_memory(node), endpoint_params(sys_.preset()),
                                                   routes_from(sys_.network(), node, uint32_t(sys_.node_count())),
                                                   node_of(sys_, 0).handler_server());
            loads_ = nic_.nic().loads();
        }
        if (lc == 0) return *endpoint_;
        auto& ep = others_[lc];
        if (!ep) {
            try {
                ep = std::make_unique<Endpoint>(*endpoint_, lc);
            } catch (...) {
                others_.erase(lc);
                throw;
            }
        }
        return *ep;
    }
    // The sockets emulation of the node's endpoint (§8.3), made with it on first use.
    Sockets& sockets() {
        Endpoint& ep = endpoint();
        if (!sockets_ || &sockets_->endpoint() != &ep)
            sockets_ = std::make_unique<Sockets>(ep, sys_.host_memory(nic_.node()), socket_params(sys_.preset()), uint32_t(sys_.node_count()));
        return *sockets_;
    }

private:
    system::System& sys_;
    bus::PciBus bus_;
    LanaiNic nic_;
    std::unique_ptr<Endpoint> endpoint_;
    std::map<uint32_t, std::unique_ptr<Endpoint>> others_;  // LCs 1.. (grim.lcs)
    uint64_t loads_ = 0;
    std::vector<std::unique_ptr<Endpoint>> retired_;
    std::unique_ptr<Sockets> sockets_;
    std::vector<std::unique_ptr<Sockets>> retired_sockets_;
    HandlerServer handler_server_;
    TransportDirectory transports_;
    McDirectory multicast_trees_;
    std::unique_ptr<Multicast> multicast_;
};

GrimNode& node_of(system::System& sys, size_t node) {
    auto* n = dynamic_cast<GrimNode*>(&sys.hardware(node));
    if (!n) throw Error("node " + std::to_string(node) + " is a " + sys.model().name() + " node, not a GRIM (LANai) node");
    return *n;
}

// The multicast benchmark finds GRIM's NI multicast through GroupModel (group_model.hpp).
class GrimModel final : public system::SystemModel, public system::GroupModel {
public:
    std::string name() const override { return "grim"; }
    std::string summary() const override {
        return "GRIM on Myrinet (seed 004): C firmware on the LANai 4/9 core, NI-to-NI go-back-N, active messages and remote memory, "
               "PCI hosts, source-routed crossbar";
    }
    std::string nic_family() const override { return "embedded-core"; }
    std::string default_preset() const override { return "grim-lanai9"; }
    std::vector<system::ParameterDecl> parameters() const override { return grim::parameters(); }
    net::NetworkParams network_params(const system::Preset& preset) const override { return grim::network_params(preset); }
    // assumption: one Myrinet crossbar switch between the hosts for any node count; the
    // thesis gives no topology or switch for its host-to-host runs (digest ambiguity 15).
    nlohmann::json default_topology(uint32_t nodes) const override {
        if (nodes < 2) return nullptr;
        return {{"kind", "crossbar"}, {"ports", nodes}};
    }
    std::unique_ptr<system::NodeHardware> build_node(system::System& sys, uint32_t node) const override {
        if (sys.node_count() > GRIM_MAX_NODES)
            throw system::ConfigError("nodes", "GRIM's firmware keeps routes for " + std::to_string(GRIM_MAX_NODES) + " nodes");
        return std::make_unique<GrimNode>(sys, node);
    }
    std::vector<msg::TransportInfo> transports() const override { return transport_infos(); }
    std::unique_ptr<msg::Transport> open_transport(system::System& sys, uint32_t node, uint32_t peer, const std::string& transport,
                                                   uint64_t seed) const override {
        if (peer >= sys.node_count() || peer == node)
            throw msg::TransportError("node " + std::to_string(node) + ": no peer node " + std::to_string(peer));
        try {
            if (transport == "sockets")
                return make_socket_transport(node_of(sys, node).sockets(), sys.host_memory(node), node_of(sys, 0).transports(), peer, seed);
            return make_transport(transport, grim::endpoint(sys, node), sys.host_memory(node), node_of(sys, 0).transports(), peer, seed);
        } catch (const msg::TransportError&) {
            throw;
        } catch (const Error& e) {
            throw msg::TransportError(std::string("transport '") + transport + "': " + e.what());
        }
    }
    std::unique_ptr<msg::GroupMessaging> open_group_messaging(system::System& sys, uint32_t node) const override {
        node_of(sys, node);  // a GRIM node, or Error naming it
        return make_group_messaging(sys, node);
    }
    std::string default_firmware(uint32_t) const override { return "grim"; }
    const nlohmann::json& published() const override { return system::published("grim"); }
};

}  // namespace

const system::SystemModel& model() {
    static const GrimModel m;
    return m;
}

LanaiNic& lanai(system::System& sys, size_t node) { return node_of(sys, node).lanai(); }
Endpoint& endpoint(system::System& sys, size_t node, uint32_t lc) { return node_of(sys, node).endpoint(lc); }
Multicast& multicast(system::System& sys, size_t node) { return node_of(sys, node).multicast(); }
Sockets& sockets(system::System& sys, size_t node) { return node_of(sys, node).sockets(); }

}  // namespace niclab::grim
