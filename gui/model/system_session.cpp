#include "model/system_session.hpp"

#include <algorithm>
#include <filesystem>

#include "model/trace_set.hpp"
#include "niclab/core/cpu.hpp"
#include "niclab/fw/firmware_image.hpp"
#include "niclab/fw/symbolizer.hpp"
#include "niclab/net/network.hpp"
#include "niclab/nic/embedded_nic.hpp"
#include "niclab/system/preset.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::gui {

SystemSession::SystemSession(const system::SystemSpec& spec) : sys_(std::make_unique<system::System>(spec)) {
    if (auto* net = sys_->network()) busy_ps_.assign(net->links().size(), 0.0);
}

SystemSession::~SystemSession() = default;

system::System::RunResult SystemSession::advance(Time slice) { return sys_->run_for(slice); }

std::string SystemSession::load(const std::vector<size_t>& nodes, const std::string& elf) {
    std::vector<size_t> targets = nodes;
    if (targets.empty())
        for (size_t n = 0; n < sys_->node_count(); ++n) targets.push_back(n);
    std::string report;
    for (size_t n : targets) {
        if (n >= sys_->node_count())
            throw Error("node " + std::to_string(n) + ": the system has nodes 0.." + std::to_string(sys_->node_count() - 1));
        nic::EmbeddedNic& nic = sys_->nic(n);  // Error naming the system when it has no core
        const nic::BootReport boot = nic.reload_firmware(elf);
        const fw::FirmwareImage& image = *nic.image();
        report += "node " + std::to_string(n) + ": " + std::filesystem::path(elf).stem().string() + ", " +
                  std::to_string(image.sram_bytes_used()) + " of " + std::to_string(nic.config().sram.size) +
                  " B of SRAM, running " + std::to_string((boot.running - boot.started).as_us()) + " us after reset (" +
                  std::to_string(boot.instructions) + " instructions)\n";
    }
    return report;
}

InjectionOutcome SystemSession::inject(const Injection& m) {
    if (const auto* p = std::get_if<PortalsMessage>(&m)) return portals_.inject(*p);
    if (const auto* g = std::get_if<GrimMessage>(&m)) return grim_.inject(*g);
    return transports_.inject(std::get<TransportMessage>(m));
}

std::vector<Cable> SystemSession::cables() const {
    std::vector<Cable> out;
    net::Network* net = const_cast<system::System&>(*sys_).network();
    if (!net) return out;
    const net::Topology& t = net->topology();
    if (t.routers() == 0) {  // a direct cable between the two nodes
        if (t.nodes() == 2) out.push_back({{true, 0}, {true, 1}, 0});
        return out;
    }
    for (uint32_t n = 0; n < t.nodes(); ++n) out.push_back({{true, n}, {false, t.router_of(n)}, 0});
    for (uint32_t r = 0; r < t.routers(); ++r)
        for (const auto& p : t.ports(r))
            if (p.kind == net::PeerKind::Router && r < p.peer) out.push_back({{false, r}, {false, p.peer}, 0});
    return out;
}

// The names of node n's counters, of which it has `count` in the layout `layout`
// (system::Counters::layout): read once per layout, then shared by every node and
// snapshot that has it.
std::shared_ptr<const std::vector<std::string>> SystemSession::counter_names(size_t n, uint64_t layout, size_t count) {
    for (const auto& [known, names] : counter_layouts_)
        if (known == layout && names->size() == count) return names;
    auto names = std::make_shared<std::vector<std::string>>();
    const system::Counters named = sys_->counters(n);
    for (const auto& item : named.items()) names->push_back(item.first);
    counter_layouts_.emplace_back(layout, names);
    return names;
}

SystemSnapshot SystemSession::snapshot() {
    SystemSnapshot s;
    s.now = sys_->now();
    const auto& spec = sys_->spec();
    std::string firmware;
    for (const auto& f : spec.firmware) firmware += (firmware.empty() ? "" : ", ") + std::filesystem::path(f).stem().string();
    s.description = sys_->model().name() + " (preset " + sys_->preset().name() + "), " +
                    std::to_string(sys_->node_count()) + " nodes" + (firmware.empty() ? "" : ", firmware " + firmware);
    net::Network* net = sys_->network();
    if (net) s.routers = net->topology().routers();

    // Link busy time since the last snapshot: utilization() is a fraction of all time.
    const double elapsed = double((s.now - last_).ps());
    std::vector<double> recent(busy_ps_.size(), 0.0);
    for (size_t l = 0; l < busy_ps_.size(); ++l) {
        const double busy = net->utilization(net::LinkId(l), s.now) * double(s.now.ps());
        recent[l] = elapsed > 0 ? std::clamp((busy - busy_ps_[l]) / elapsed, 0.0, 1.0) : 0.0;
        busy_ps_[l] = busy;
    }
    last_ = s.now;

    const bool embedded = sys_->has_embedded_nics();
    for (size_t n = 0; n < sys_->node_count(); ++n) {
        NodeView v;
        system::Counters counters = system::Counters::values_only();
        sys_->counters(n, counters);
        v.counter_names = counter_names(n, counters.layout(), counters.values().size());
        v.counter_values = counters.values();
        if (sys_->dead(n)) {
            v.state = NodeState::dead;
            v.reason = sys_->dead_reason(n);
        } else if (sys_->faulted(n)) {
            v.state = NodeState::faulted;
            v.reason = sys_->fault_report(n);
        } else if (!embedded) {
            v.state = NodeState::niu;
        } else {
            switch (sys_->nic(n).cpu().state()) {
                case core::Cpu::State::Reset: v.state = NodeState::booting; break;
                case core::Cpu::State::Running: v.state = NodeState::running; break;
                case core::Cpu::State::Waiting: v.state = NodeState::asleep; break;
                case core::Cpu::State::Halted: v.state = NodeState::halted; break;
                case core::Cpu::State::Faulted: v.state = NodeState::faulted; break;
            }
        }
        if (embedded) {
            const nic::EmbeddedNic& nic = sys_->nic(n);
            v.sram_size = nic.config().sram.size;
            if (nic.image()) {
                v.sram_used = nic.image()->sram_bytes_used();
                v.firmware = nic.image()->path().stem().string();
            }
            if (const auto fault = nic.fault(); fault && nic.symbolizer()) {
                const fw::SourceLocation at = nic.symbolizer()->lookup(fault->info().pc);
                v.fault_source = find_source(at.path, at.file);
                v.fault_line = at.line;
            }
        }
        if (net && n < net->nodes()) {
            v.tx_utilization = recent.at(net->injection_link(net::NodeId(n)));
            v.rx_utilization = recent.at(net->ejection_link(net::NodeId(n)));
        }
        s.nodes.push_back(std::move(v));
    }
    s.portals_unsupported = PortalsInjection::unsupported(*sys_);
    s.grim_unsupported = GrimInjection::unsupported(*sys_);
    for (const auto& t : sys_->model().transports()) s.transports.push_back(t.name);
    s.cables = cables();
    for (auto& c : s.cables)
        for (const Vertex& end : {c.a, c.b})
            if (end.node) {
                const auto& v = s.nodes.at(end.id);
                c.utilization = std::max({c.utilization, v.tx_utilization, v.rx_utilization});
            }
    return s;
}

}  // namespace niclab::gui
