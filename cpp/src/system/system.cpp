#include "niclab/system/system.hpp"

#include <algorithm>

#include "niclab/system/config_error.hpp"

namespace niclab::system {

System::System(const SystemSpec& spec) : spec_(spec), preset_(Preset::named(spec.preset)) {
    preset_.apply_overrides(spec.overrides, "set");
    params_ = preset_.params(0);
    ras_ = RasMonitor(Time::us(preset_.value("ras.heartbeat_timeout_us")));
    if (spec.has_network()) {
        net::NetworkParams np = params_.net;
        np.seed = spec.seed;
        network_ = std::make_unique<net::Network>(kernel_, spec.topology_spec(), np);
    }
    for (uint32_t i = 0; i < spec.nodes; ++i) {
        Node n;
        n.memory = std::make_unique<host::HostMemory>();
        n.cpu = std::make_unique<host::HostCpu>(kernel_, params_.host);
        n.nic = std::make_unique<nic::Nic>(kernel_, preset_.nic_config(i), *n.memory);
        if (network_) n.port = std::make_unique<NetPort>(*network_, *n.nic);
        nodes_.push_back(std::move(n));
    }
    for (uint32_t i = 0; i < spec.nodes && !spec.firmware.empty(); ++i)
        nodes_[i].nic->load_firmware(spec.firmware.size() == 1 ? spec.firmware[0] : spec.firmware[i]);
}

System::~System() {
    for (Node& n : nodes_)
        if (n.nal) n.nal->retire();
}

nic::Nic& System::nic(size_t node) {
    if (node >= nodes_.size())
        throw std::out_of_range("node " + std::to_string(node) + " (system has " + std::to_string(nodes_.size()) +
                                " nodes)");
    return *nodes_[node].nic;
}

host::HostCpu& System::host_cpu(size_t node) {
    nic(node);  // range check
    return *nodes_[node].cpu;
}

host::HostMemory& System::host_memory(size_t node) {
    nic(node);  // range check
    return *nodes_[node].memory;
}

portals::SsNal& System::portals(size_t node) {
    nic(node);  // range check
    Node& n = nodes_[node];
    if (n.nal && n.nal_loads != n.nic->loads()) {
        n.nal->retire();
        retired_nals_.push_back(std::move(n.nal));  // kept: events and interfaces may still refer to it
    }
    if (!n.nal) {
        n.nal = std::make_unique<portals::SsNal>(*n.nic, *n.cpu, *n.memory, params_.pio, params_.portals,
                                                  uint32_t(nodes_.size()));
        n.nal_loads = n.nic->loads();
    }
    return *n.nal;
}

void System::set_observer(Observer observer, Time interval) {
    observer_ = std::move(observer);
    observe_interval_ = std::max(interval, Time::ns(1));
}

bool System::idle() const {
    if (kernel_.has_pending_events()) return false;
    return std::none_of(nodes_.begin(), nodes_.end(), [](const Node& n) { return n.nic->cpu().active(); });
}

void System::sample_ras(RunResult& r) {
    std::vector<const nic::Nic*> nics;
    for (const Node& n : nodes_) nics.push_back(n.nic.get());
    for (size_t node : ras_.sample(nics, kernel_.now())) r.dead_nodes.push_back(node);
}

System::RunResult System::run_until(Time until) {
    std::vector<bool> was_faulted;
    for (auto& n : nodes_) was_faulted.push_back(n.nic->faulted());
    RunResult r;
    const bool to_quiescence = until == Time::max();
    while (kernel_.now() < until) {
        if (idle()) {
            // Nothing can happen any more: time passes for free (unless running to quiescence).
            if (!to_quiescence) kernel_.run_until(until);
            sample_ras(r);
            break;
        }
        Time slice_end = until;
        if (observer_) slice_end = std::min(slice_end, kernel_.now() + observe_interval_);
        if (ras_.enabled()) slice_end = std::min(slice_end, kernel_.now() + ras_.period());
        kernel_.run_until(slice_end, to_quiescence);
        sample_ras(r);
        if (kernel_.stop_requested()) {
            r.stopped_by_request = true;
            break;
        }
        if (observer_ && !observer_(kernel_.now())) {
            r.stopped_by_observer = true;
            break;
        }
    }
    r.reached = kernel_.now();
    for (size_t i = 0; i < nodes_.size(); ++i)
        if (!was_faulted[i] && nodes_[i].nic->faulted()) r.faulted_nodes.push_back(i);
    return r;
}

}  // namespace niclab::system
