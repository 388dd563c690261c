#pragma once
// A simulated cluster built from a SystemSpec: the kernel, the network, and per node
// a host (memory and CPU) and the system's own hardware (NodeHardware: its NIC, the
// bus to it, its drivers), built by the system's model from the registry
// (system_model.hpp). Host processes (host::Process on host_cpu(n)) must be destroyed
// before the System.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "niclab/core/code_pool.hpp"
#include "niclab/host/host_cpu.hpp"
#include "niclab/host/host_memory.hpp"
#include "niclab/net/capture.hpp"
#include "niclab/net/network.hpp"
#include "niclab/nic/embedded_nic.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/system/preset.hpp"
#include "niclab/system/ras_monitor.hpp"
#include "niclab/system/system_model.hpp"
#include "niclab/system/system_spec.hpp"
#include "niclab/system/terminals.hpp"

namespace niclab::system {

// The spec's preset with its swapped parts and "set" overrides applied: what a System
// of this spec is built from (also for experiments that need only its network).
// Throws ConfigError naming the key.
Preset resolved_preset(const SystemSpec& spec);

class System {
public:
    explicit System(const SystemSpec& spec);  // throws ConfigError; loads spec.firmware
    ~System();

    const SystemSpec& spec() const { return spec_; }
    const Preset& preset() const { return preset_; }
    const SystemModel& model() const { return model_; }
    sim::Kernel& kernel() { return kernel_; }
    const sim::Kernel& kernel() const { return kernel_; }
    Time now() const { return kernel_.now(); }
    size_t node_count() const { return nodes_.size(); }
    // The embedded-core NIC of a node; niclab::Error for a system whose NICs have no
    // core (a fixed-function NIU), naming the system.
    nic::EmbeddedNic& nic(size_t node);
    bool has_embedded_nics() const;
    // The node's NIC stopped on an error it detected (a firmware fault, an NIU's
    // protocol violation), and its report.
    bool faulted(size_t node) const;
    std::string fault_report(size_t node) const { return nodes_.at(node).hardware->fault_report(); }
    host::HostMemory& host_memory(size_t node);
    host::HostCpu& host_cpu(size_t node);
    NodeHardware& hardware(size_t node);
    net::Network* network() { return network_.get(); }  // null for one node
    // The network's terminals: each node's network ports (one per node unless the
    // system's NIC drives several links).
    const Terminals& terminals() const { return terminals_; }
    // The decoded code pages the NICs' cores share (core/code_pool.hpp).
    const core::CodePool& code_pool() const { return *code_pool_; }
    // The node's counters (counters.hpp): its embedded core's and caches' (counted from
    // the firmware's last reset), its NIC's and driver's (the model's), its host CPU's
    // and its network cables'. Throws std::out_of_range for a node that does not exist.
    Counters counters(size_t node);
    // The same, added to `out` (Counters::values_only() for a reader of every node).
    void counters(size_t node, Counters& out);

    // Observe progress: called every `interval` of simulated time during run_until
    // with the time reached; returning false stops the run there (the state stays
    // consistent and the run can be resumed).
    using Observer = std::function<bool(Time)>;
    void set_observer(Observer observer, Time interval);

    struct RunResult {
        Time reached;
        bool stopped_by_observer = false;
        // A component (an experiment's host program publishing a point) asked the kernel
        // to stop; the run can be resumed.
        bool stopped_by_request = false;
        std::vector<size_t> faulted_nodes;  // NICs that faulted during this run
        std::vector<size_t> dead_nodes;     // NICs RAS marked dead during this run
    };
    // RAS (seed 000 §5.3): is this node's NIC marked dead, and why.
    bool dead(size_t node) const { return ras_.dead(node); }
    const std::string& dead_reason(size_t node) const { return ras_.reason(node); }
    // Run until `until`, or until nothing is left to do (every core asleep or
    // stopped and no event pending). A faulting NIC stops; the others go on.
    RunResult run_until(Time until);
    RunResult run_for(Time duration) { return run_until(now() + duration); }

    // Packet capture (net/capture.hpp) to a pcapng file: taps on nodes (each a node's
    // NIC cables, every port of it) and links (LinkIds); neither given: every node.
    // One capture at a time; it is flushed after every run, so the file is readable
    // between runs, and closed by stop_capture() or with the System. Throws
    // net::CaptureError naming an unknown node or link, or the file.
    struct CaptureRequest {
        std::string path;
        std::vector<uint32_t> nodes;
        std::vector<net::LinkId> links;
    };
    net::Capture& start_capture(const CaptureRequest& request);
    void stop_capture();                             // CaptureError if a write failed
    net::Capture* capture() { return capture_.get(); }  // null when none is open

private:
    struct Node {
        std::unique_ptr<host::HostMemory> memory;
        std::unique_ptr<host::HostCpu> cpu;
        std::unique_ptr<NodeHardware> hardware;  // destroyed first (members in reverse)
    };
    bool idle() const;
    void sample_ras(RunResult& r);

    SystemSpec spec_;
    Preset preset_;
    const SystemModel& model_;
    sim::Kernel kernel_;
    Terminals terminals_;
    std::unique_ptr<net::Network> network_;
    std::unique_ptr<net::Capture> capture_;  // after network_: closed (and detached) before it goes
    // The cores' shared decoded code (core/code_pool.hpp): one pool per simulation, so
    // every NIC running the same firmware decodes it once. The System holds it because it
    // builds the NICs and outlives them (declared before nodes_), and because it is what
    // one simulation is: the kernel that runs the cores on one thread is its member too.
    // Leased: the pool an earlier simulation gave back, its code decoded and translated.
    core::CodePool::Lease code_pool_ = core::CodePool::take();
    std::vector<Node> nodes_;
    RasMonitor ras_{Time{}};
    Observer observer_;
    Time observe_interval_ = Time::us(100);
};

}  // namespace niclab::system
