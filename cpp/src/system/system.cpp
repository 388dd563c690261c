#include "niclab/system/system.hpp"

#include <algorithm>
#include <filesystem>

#include "niclab/sim/host_resources.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/system/host_part.hpp"

namespace niclab::system {

Preset resolved_preset(const SystemSpec& spec) {
    Preset p = Preset::named(spec.preset.empty() ? system_model(spec.system).default_preset() : spec.preset);
    if (!spec.system.empty() && spec.system != p.system())
        throw ConfigError("system", "is '" + spec.system + "' but preset '" + p.name() + "' belongs to system '" +
                                        p.system() + "'");
    for (auto it = spec.parts.begin(); it != spec.parts.end(); ++it) p.apply_part(it.key(), it->get<std::string>());
    p.apply_overrides(spec.overrides, "set");
    return p;
}

System::System(const SystemSpec& spec)
    : spec_(spec), preset_(resolved_preset(spec)), model_(preset_.model()) {
    spec_.preset = preset_.name();
    spec_.system = preset_.system();
    const host::HostConfig host = host_config(preset_);
    if (preset_.has("ras.heartbeat_timeout_us")) ras_ = RasMonitor(Time::us(preset_.integer("ras.heartbeat_timeout_us")));
    terminals_ = Terminals{spec.nodes, model_.ports_per_node(preset_)};
    // The network as the spec would name it: the model's own when it names none, so a
    // result says which network it ran on (the SeaStar's depends on the node count).
    if (spec_.topology.is_null()) spec_.topology = model_.default_topology(spec.nodes, terminals_.ports);
    kernel_.set_lanes(spec.lanes);
    kernel_.set_fire_inline(spec.fire_inline);
    if (spec.has_network()) {
        net::NetworkParams np = model_.network_params(preset_);
        np.seed = spec.seed;
        np.credit_events = spec.credit_events;
        np.send_ahead = spec.send_ahead;
        network_ = std::make_unique<net::Network>(
            kernel_, spec_.topology_spec(nullptr, terminals_.ports), np);
    }
    for (uint32_t i = 0; i < spec.nodes; ++i) {
        Node n;
        n.memory = std::make_unique<host::HostMemory>();
        n.cpu = std::make_unique<host::HostCpu>(kernel_, host);
        n.cpu->set_node(i);
        nodes_.push_back(std::move(n));
    }
    for (uint32_t i = 0; i < spec.nodes; ++i) {
        try {
            nodes_[i].hardware = model_.build_node(*this, i);
        } catch (const sim::HostResourceError& e) {  // which node the machine could not hold
            throw sim::HostResourceError("node " + std::to_string(i) + ": " + e.what());
        }
        if (nic::EmbeddedNic* nic = nodes_[i].hardware->embedded_nic()) {
            nic->cpu().set_code_pool(code_pool_.get());
            nic->cpu().set_run_ahead(spec.run_ahead);
        }
    }
    if (network_ && spec.lookahead && has_embedded_nics()) {
        const uint32_t hops = spec.lookahead_hops ? network_->cross_node_hops() : 1;
        kernel_.set_lookahead(network_->lookahead(), spec.nodes, network_->neighbours(), hops);
    }
    if (!spec.firmware.empty() && !has_embedded_nics())
        throw ConfigError("firmware", "system '" + model_.name() + "' has no embedded core to load firmware into (" +
                                          model_.nic_family() + " NIC)");
    for (uint32_t i = 0; i < spec.nodes && !spec.firmware.empty(); ++i)
        nic(i).load_firmware(spec.firmware.size() == 1 ? spec.firmware[0] : spec.firmware[i]);
    if (!spec.capture.is_null()) {
        CaptureRequest c{spec.capture["file"].get<std::string>(), {}, {}};
        if (spec.capture.contains("nodes")) c.nodes = spec.capture["nodes"].get<std::vector<uint32_t>>();
        if (spec.capture.contains("links")) c.links = spec.capture["links"].get<std::vector<net::LinkId>>();
        start_capture(c);
    }
}

net::Capture& System::start_capture(const CaptureRequest& request) {
    if (!network_)
        throw net::CaptureError("capture '" + request.path + "': a system of one node has no network to capture", "",
                                request.path);
    if (capture_ && capture_->is_open())
        throw net::CaptureError("capture '" + request.path + "': this system is already capturing to '" +
                                    capture_->path() + "' (close that capture first)",
                                "", request.path);
    net::CaptureSpec spec;
    spec.path = request.path;
    spec.links = request.links;
    spec.format = net::payload_format_of(model_.name());
    const Terminals t = terminals_;
    spec.terminal_name = [t](net::NodeId n) { return t.name(n); };
    std::vector<uint32_t> nodes = request.nodes;
    if (nodes.empty() && request.links.empty())
        for (uint32_t n = 0; n < nodes_.size(); ++n) nodes.push_back(n);
    for (uint32_t n : nodes) {
        net::CaptureSpec::NodeTap tap{"node " + std::to_string(n), {}};
        if (n >= nodes_.size())
            throw net::CaptureError("capture: " + tap.name + " does not exist: the system has nodes 0.." +
                                        std::to_string(nodes_.size() - 1),
                                    tap.name, request.path);
        for (uint32_t p = 0; p < t.ports; ++p) tap.terminals.push_back(t.terminal(n, p));
        spec.nodes.push_back(std::move(tap));
    }
    std::string firmware;
    for (const auto& f : spec_.firmware)  // the image's name: a path would tie the file to the checkout
        firmware += (firmware.empty() ? "" : ", ") + std::filesystem::path(f).stem().string();
    spec.comment = "niclab " + model_.name() + " (preset " + preset_.name() + "), " + std::to_string(nodes_.size()) +
                   " nodes" + (t.ports > 1 ? " of " + std::to_string(t.ports) + " network ports" : "") + ", seed " +
                   std::to_string(spec_.seed) + (spec_.topology.is_null() ? "" : ", topology " + spec_.topology.dump()) +
                   (firmware.empty() ? "" : ", firmware " + firmware) + "; payload format " + net::to_string(spec.format);
    spec.hardware = "niclab " + model_.name();
    capture_ = std::make_unique<net::Capture>(*network_, spec);
    return *capture_;
}

void System::stop_capture() {
    if (!capture_) return;
    std::unique_ptr<net::Capture> c = std::move(capture_);
    c->close();
}

System::~System() {
    // The system's hardware (drivers holding host processes' interfaces, NICs attached
    // to the network) goes before the hosts and the network.
    for (Node& n : nodes_) n.hardware.reset();
}

NodeHardware& System::hardware(size_t node) {
    if (node >= nodes_.size())
        throw std::out_of_range("node " + std::to_string(node) + " (system has " + std::to_string(nodes_.size()) +
                                " nodes)");
    return *nodes_[node].hardware;
}

bool System::has_embedded_nics() const { return model_.nic_family() == "embedded-core"; }

nic::EmbeddedNic& System::nic(size_t node) {
    nic::EmbeddedNic* n = hardware(node).embedded_nic();
    if (!n)
        throw Error("node " + std::to_string(node) + " of system '" + model_.name() + "' has a " + model_.nic_family() +
                    " NIC: there is no embedded core or firmware");
    return *n;
}

host::HostCpu& System::host_cpu(size_t node) {
    hardware(node);  // range check
    return *nodes_[node].cpu;
}

host::HostMemory& System::host_memory(size_t node) {
    hardware(node);  // range check
    return *nodes_[node].memory;
}

void System::set_observer(Observer observer, Time interval) {
    observer_ = std::move(observer);
    observe_interval_ = std::max(interval, Time::ns(1));
}

bool System::idle() const {
    if (kernel_.has_pending_events()) return false;
    return std::none_of(nodes_.begin(), nodes_.end(), [](const Node& n) { return n.hardware->active(); });
}

bool System::faulted(size_t node) const { return nodes_[node].hardware->faulted(); }

void System::sample_ras(RunResult& r) {
    if (!ras_.enabled() || !has_embedded_nics()) return;
    std::vector<const nic::EmbeddedNic*> nics;
    for (Node& n : nodes_) nics.push_back(n.hardware->embedded_nic());
    for (size_t node : ras_.sample(nics, kernel_.now())) r.dead_nodes.push_back(node);
}

System::RunResult System::run_until(Time until) {
    std::vector<bool> was_faulted;
    for (size_t i = 0; i < nodes_.size(); ++i) was_faulted.push_back(faulted(i));
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
        if (!was_faulted[i] && faulted(i)) r.faulted_nodes.push_back(i);
    if (capture_) capture_->flush();  // the file is readable between runs
    return r;
}

}  // namespace niclab::system
