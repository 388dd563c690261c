// The T9000 in the registry of systems: its node (the VCP beside the CPU's hardware
// scheduler), the vl transports and its published results (published.json).
#include "niclab/systems/t9000/model.hpp"

#include "niclab/system/config_error.hpp"
#include "niclab/system/published.hpp"
#include "niclab/systems/ds/ds_network.hpp"

namespace niclab::t9000 {

namespace {

class T9000Node final : public system::NodeHardware {
public:
    T9000Node(system::System& sys, uint32_t node)
        : memory_(memory_params(sys.preset())), vcp_(sys.kernel(), sys.network(), sys.host_memory(node), memory_, params(sys, node)) {}

    bool faulted() const override { return vcp_.faulted(); }
    std::string fault_report() const override { return vcp_.fault(); }
    Vcp& vcp() { return vcp_; }
    uint64_t& transport_heap() { return transport_heap_; }
    MemorySystem& memory() { return memory_; }
    Time memory_stall() override { return memory_.cpu_stall(); }
    void counters(system::Counters& out) const override {
        const VcpStats& v = vcp_.stats();
        out.add("nic.packets_sent", v.packets_sent);
        out.add("nic.packets_received", v.packets_received);
        out.add("nic.acks_sent", v.acks_sent);
        out.add("nic.acks_received", v.acks_received);
        out.add("nic.bytes_sent", v.bytes_sent);
        out.add("nic.bytes_received", v.bytes_received);
        out.add("nic.engine_busy_ns", uint64_t(v.busy.ps() / 1000));
        const MemoryStats& m = memory_.stats();
        out.add("memory.vcp_words", m.vcp_words);
        out.add("memory.vcp_external_words", m.vcp_external_words);
        out.add("memory.refetched_bytes", m.refetched_bytes);
        out.add("memory.cpu_stalled_ns", uint64_t(m.cpu_stalled.ps() / 1000));
    }

private:
    static VcpParams params(system::System& sys, uint32_t node) {
        VcpParams p = vcp_params(sys.preset(), node);
        p.terminals = sys.terminals();
        return p;
    }
    MemorySystem memory_;  // before the VCP, which uses it
    Vcp vcp_;
    uint64_t transport_heap_ = 0;  // the next free transport buffer address (make_vl_transport)
};

T9000Node& node_of(system::System& sys, size_t node) {
    auto* n = dynamic_cast<T9000Node*>(&sys.hardware(node));
    if (!n) throw Error("node " + std::to_string(node) + " is a " + sys.model().name() + " node, not a T9000");
    return *n;
}

class T9000Model final : public system::SystemModel {
public:
    std::string name() const override { return "t9000"; }
    std::string summary() const override {
        return "INMOS T9000 transputer (seed 003 P1 §2): the VCP multiplexes virtual links onto DS links, STC104 switches";
    }
    std::string nic_family() const override { return "fixed-function"; }
    std::string default_preset() const override { return "t9000-20"; }
    std::vector<system::ParameterDecl> parameters() const override { return t9000::parameters(); }
    net::NetworkParams network_params(const system::Preset& preset) const override { return ds::network_params(preset); }
    nlohmann::json default_topology(uint32_t nodes) const override { return ds::default_topology(nodes); }
    // Each node cables t9000.links of its four DS links into the network.
    uint32_t ports_per_node(const system::Preset& preset) const override { return links(preset); }
    nlohmann::json default_topology(uint32_t nodes, uint32_t ports) const override {
        return ds::default_topology(nodes, ports);
    }
    std::unique_ptr<system::NodeHardware> build_node(system::System& sys, uint32_t node) const override {
        return std::make_unique<T9000Node>(sys, node);
    }
    std::vector<msg::TransportInfo> transports() const override { return transport_infos(); }
    std::unique_ptr<msg::Transport> open_transport(system::System& sys, uint32_t node, uint32_t peer,
                                                   const std::string& transport, uint64_t seed) const override {
        if (peer >= sys.node_count() || peer == node)
            throw msg::TransportError("node " + std::to_string(node) + ": no peer node " + std::to_string(peer));
        bool known_name = false;
        std::string known;
        for (const auto& t : transport_infos()) {
            known += (known.empty() ? "" : ", ") + t.name;
            known_name = known_name || t.name == transport;
        }
        if (!known_name) throw msg::TransportError("the T9000 has no transport '" + transport + "' (" + known + ")");
        // vl, vl_seq: one VL in all (0); vlK: K VLs on each link.
        const bool one = transport == "vl" || transport == "vl_seq";
        const uint32_t per_link = one ? 0 : uint32_t(std::stoul(transport.substr(2)));
        return make_vl_transport(node_of(sys, node).vcp(), node_of(sys, peer).vcp(), sys.host_memory(node),
                                 node_of(sys, node).transport_heap(), per_link,
                                 transport == "vl_seq", seed, vl_costs(sys.preset()));
    }
    const nlohmann::json& published() const override { return system::published("t9000"); }
};

}  // namespace

const system::SystemModel& model() {
    static const T9000Model m;
    return m;
}

Vcp& vcp(system::System& sys, size_t node) { return node_of(sys, node).vcp(); }
MemorySystem& memory_system(system::System& sys, size_t node) { return node_of(sys, node).memory(); }

}  // namespace niclab::t9000
