// The SeaStar in the registry of systems: its node (HyperTransport link, NIC, network
// port, Portals driver), its transport (Portals put/get) and its published results.
#include <memory>

#include "niclab/system/config_error.hpp"
#include "niclab/system/published.hpp"
#include "niclab/msg/transport.hpp"
#include "niclab/systems/seastar/accel_nal.hpp"
#include "niclab/systems/seastar/net_port.hpp"
#include "niclab/systems/seastar/portals_transport.hpp"
#include "niclab/systems/seastar/seastar.hpp"

namespace niclab::seastar {

namespace {

// Go-back-N's peers in the production Portals image (firmware/portals/config.h PTL_PEERS).
constexpr uint32_t kPortalsPeers = 2048;

class SeaStarNode final : public system::NodeHardware {
public:
    SeaStarNode(system::System& sys, uint32_t node)
        : params_(params(sys.preset(), node)),
          bus_(std::make_unique<bus::HyperTransport>(sys.kernel(), sys.host_memory(node), params_.bus)),
          nic_(std::make_unique<SeaStar>(sys.kernel(), params_.nic, *bus_)) {
        bus_->set_node(node);
        if (sys.network()) {
            port_ = std::make_unique<NetPort>(*sys.network(), *nic_);
            // Its core sees the network only through its NIC's events (DMA engines, packet
            // arrivals) and touches it only by letting in a held packet, whose credits go
            // back as times: its router's events reach it a cable late, and what it and its
            // NIC do reaches the router a cable late.
            sys.kernel().set_router_delay(node, sys.network()->router_delay(node));
            sys.kernel().set_nic_delay(node, sys.network()->nic_delay(node));
        }
    }
    ~SeaStarNode() override {
        if (nal_) nal_->retire();
    }

    bool active() const override { return nic_->nic().cpu().active(); }
    nic::EmbeddedNic* embedded_nic() override { return &nic_->nic(); }
    bool faulted() const override { return nic_->nic().faulted(); }
    std::string fault_report() const override {
        auto f = nic_->nic().fault();
        return f ? f->what() : "";
    }
    SeaStar& seastar() { return *nic_; }
    void counters(system::Counters& out) const override {
        out.add("nic.tx_dma_messages", nic_->tx_dma().messages_sent());
        out.add("nic.tx_dma_packets", nic_->tx_dma().packets_sent());
        out.add("nic.rx_dma_packets", nic_->rx_dma().packets_received());
        out.add("nic.rx_exhausted", nic_->rx_dma().exhausted());
        out.add("nic.rx_crc_errors", nic_->rx_dma().crc_errors());
        out.add("nic.rx_orphan_packets", nic_->rx_dma().orphan_packets());
        // The Portals firmware's go-back-N counters (its NIC control block, read through
        // the debug back door: no simulated time), once a driver knows where they are.
        if (!nal_) return;
        const ptl_niccb& cb = nal_->niccb();
        if (nal_->has(PTL_FW_FEAT_GO_BACK_N)) {
            out.add("portals.rx_drops", cb.rx_drops);
            out.add("portals.nacks_sent", cb.nacks_sent);
            out.add("portals.nacks_received", cb.nacks_received);
            out.add("portals.acks_sent", cb.acks_sent);
            out.add("portals.acks_received", cb.acks_received);
            out.add("portals.retransmits", cb.retransmits);
            out.add("portals.tx_source_waits", cb.tx_source_waits);
            out.add("portals.tx_skips", cb.tx_skips);
            out.add("portals.skips_received", cb.skips_received);
        }
        // Accelerated mode: the firmware's matching and event posting (seed 000 §4.3.2).
        if (nal_->has(PTL_FW_FEAT_ACCEL)) {
            out.add("portals.accel_matches", cb.accel_matches);
            out.add("portals.accel_drops", cb.accel_drops);
            out.add("portals.accel_entries_examined", cb.accel_examined);
            out.add("portals.accel_events", cb.accel_events);
            out.add("portals.host_interrupts", cb.host_interrupts);
        }
    }

    // The node's accelerated process (one: the firmware's PTL_ACCEL), set up through
    // the kernel driver on first use; `pid` must be the one it was set up with.
    AccelNal& accelerated(system::System& sys, uint32_t node, portals::ptl_pid_t pid) {
        SsNal& kernel = portals(sys, node);
        if (accel_ && accel_kernel_ != &kernel) {
            retired_accel_.push_back(std::move(accel_));  // its firmware was reloaded
        }
        if (!accel_) {
            accel_ = std::make_unique<AccelNal>(kernel, pid);
            accel_kernel_ = &kernel;
        }
        if (accel_->pid() != pid)
            throw portals::PortalsError(portals::PTL_PROCESS_INVALID,
                                        "node " + std::to_string(node) + " has its accelerated process already (pid " +
                                            std::to_string(accel_->pid()) + "); the firmware supports one");
        return *accel_;
    }

    SsNal& portals(system::System& sys, uint32_t node) {
        if (nal_ && nal_loads_ != nic_->nic().loads()) {
            nal_->retire();
            retired_.push_back(std::move(nal_));  // kept: events and interfaces may still refer to it
        }
        if (!nal_) {
            nal_ = std::make_unique<SsNal>(*nic_, sys.host_cpu(node), sys.host_memory(node), params_.portals, uint32_t(sys.node_count()));
            nal_loads_ = nic_->nic().loads();
        }
        return *nal_;
    }

    // The benchmark's process on this node, shared by its transports (one per peer),
    // over `nal`; a new one once the NAL changed (the firmware was reloaded).
    std::shared_ptr<PortalsProcess> transport_process(portals::Nal& nal, portals::Limits limits, bool polled) {
        auto p = transport_process_.lock();
        if (!p || &p->nal() != &nal) {
            p = std::make_shared<PortalsProcess>(nal, limits, polled);
            transport_process_ = p;
        }
        return p;
    }

private:
    SystemParams params_;
    std::unique_ptr<bus::HyperTransport> bus_;  // the host's link to its SeaStar: PIO and DMA
    std::unique_ptr<SeaStar> nic_;
    std::unique_ptr<NetPort> port_;
    std::unique_ptr<SsNal> nal_;
    uint64_t nal_loads_ = 0;  // the NIC's load count when the driver started
    std::vector<std::unique_ptr<SsNal>> retired_;
    std::unique_ptr<AccelNal> accel_;
    const SsNal* accel_kernel_ = nullptr;  // the driver it was set up through
    std::vector<std::unique_ptr<AccelNal>> retired_accel_;
    std::weak_ptr<PortalsProcess> transport_process_;
};

SeaStarNode& seastar_node(system::System& sys, size_t node, const char* what) {
    auto* n = dynamic_cast<SeaStarNode*>(&sys.hardware(node));
    if (!n) throw Error("node " + std::to_string(node) + " is a " + sys.model().name() + " node: " + what);
    return *n;
}

class SeaStarModel final : public system::SystemModel {
public:
    std::string name() const override { return "seastar"; }
    std::string summary() const override {
        return "Cray SeaStar (Red Storm): C Portals firmware on an embedded core, HyperTransport, 3-D mesh";
    }
    std::string nic_family() const override { return "embedded-core"; }
    std::string default_preset() const override { return "seastar"; }
    std::vector<system::ParameterDecl> parameters() const override { return seastar::parameters(); }
    net::NetworkParams network_params(const system::Preset& preset) const override { return params(preset, 0).net; }
    // Null: SystemSpec's own default (a direct cable for two nodes, a line for more).
    // SeaStars are the routers of a 3-D mesh (seed 001 §2; Red Storm's is 27 x 16 x 24, a
    // torus in z, which a spec names). Past a pair, a spec naming no network gets one:
    // assumption: the most cube-like mesh of its nodes, which is halo3d's process grid
    // too, so a halo's faces cross one cable each. A pair keeps its direct cable.
    nlohmann::json default_topology(uint32_t nodes) const override {
        if (nodes <= 2) return nullptr;
        return {{"kind", "mesh"}, {"dims", net::Mesh3D::cube_like(nodes)}};
    }
    std::unique_ptr<system::NodeHardware> build_node(system::System& sys, uint32_t node) const override {
        return std::make_unique<SeaStarNode>(sys, node);
    }
    std::vector<msg::TransportInfo> transports() const override {
        return {{"portals", "Portals 3.3 in generic mode: put and get through the SeaStar NAL (interrupt-driven)",
                 {"put", "get"}, PortalsTransport::kMaxMessage},
                {"portals_accel",
                 "Portals 3.3 in accelerated mode: no system calls, matching in the firmware, no interrupts "
                 "(needs --firmware portals_accel)",
                 {"put", "get"}, PortalsTransport::kMaxMessage}};
    }
    std::unique_ptr<msg::Transport> open_transport(system::System& sys, uint32_t node, uint32_t peer,
                                                   const std::string& transport, uint64_t seed) const override {
        if (transport == "portals_accel") {
            AccelNal* nal = nullptr;
            try {
                nal = &seastar::accelerated(sys, node, 0);
            } catch (const portals::PortalsError&) {
                throw;
            } catch (const Error& e) {
                throw msg::TransportError(std::string("transport 'portals_accel': ") + e.what() +
                                          "; run it with --firmware portals_accel");
            }
            return std::make_unique<PortalsTransport>(seastar_node(sys, node, "Portals runs on the SeaStar").transport_process(*nal, nal->limits(), true),
                                                      sys.host_memory(node), peer, seed);
        }
        return std::make_unique<PortalsTransport>(seastar_node(sys, node, "Portals runs on the SeaStar").transport_process(seastar::portals(sys, node), {}, false),
                                                  sys.host_memory(node), peer, seed);
    }
    // Go-back-N's peer table is indexed by node id, and the production image's ends at
    // kPortalsPeers (a node past it panics): a larger system gets the image built for Red
    // Storm's 10,368 nodes, whose entries are set up at a peer's first message.
    std::string default_firmware(uint32_t nodes) const override {
        return nodes > kPortalsPeers ? "portals_redstorm" : "portals";
    }
    const nlohmann::json& published() const override { return system::published("seastar"); }
};

}  // namespace

const system::SystemModel& model() {
    static const SeaStarModel m;
    return m;
}

AccelNal& accelerated(system::System& sys, size_t node, portals::ptl_pid_t pid) {
    return seastar_node(sys, node, "Portals runs on the SeaStar").accelerated(sys, uint32_t(node), pid);
}

SsNal& portals(system::System& sys, size_t node) {
    return seastar_node(sys, node, "Portals runs on the SeaStar").portals(sys, uint32_t(node));
}

SeaStar& seastar_nic(system::System& sys, size_t node) {
    return seastar_node(sys, node, "not a SeaStar").seastar();
}

}  // namespace niclab::seastar
