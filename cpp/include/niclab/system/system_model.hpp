#pragma once
// The registry of modelled systems (DESIGN.md, Systems). A system is a preset of parts
// (host, host bus, NIC, network); everything specific to one system lives in its folder
// cpp/src/systems/<name>/ and reaches the rest of niclab only through its SystemModel:
// the parameters it declares, how it builds a node's hardware and host software, the
// transports (host libraries) experiments can run over, and its published results.
// System (system.hpp) knows systems only through this registry.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "niclab/msg/transport.hpp"
#include "niclab/net/network.hpp"
#include "niclab/system/counters.hpp"

namespace niclab::nic {
class EmbeddedNic;
}

namespace niclab::system {

class System;
class Preset;

// A parameter a system declares: its key ("bus.clock_hz"), unit and allowed range.
// Presets give every declared parameter a value and a citation (or "assumption: ...").
struct ParameterDecl {
    std::string key;
    std::string unit;
    double min = 0, max = 0;
    bool integer = false;  // counts, sizes and flags: the value must be whole
};

// One node's system-specific part: its NIC (and the bus to it), its network port and
// its host drivers. Built by the model, owned by the System, destroyed before the
// node's host memory and CPU.
class NodeHardware {
public:
    virtual ~NodeHardware() = default;
    // Work that is not in the kernel's event queue (an embedded core that is running).
    virtual bool active() const { return false; }
    // The embedded-core NIC of systems that have one (null for fixed-function NIUs).
    virtual nic::EmbeddedNic* embedded_nic() { return nullptr; }
    // The NIC stopped on an error it detected itself (a firmware fault, a fixed-function
    // NIU's protocol violation); fault_report() says what, where and why.
    virtual bool faulted() const { return false; }
    virtual std::string fault_report() const { return ""; }
    // What a user computation on the node's CPU has lost to the node's memory system
    // since it last asked (cycles the NIC stole on a shared memory port, data the NIC's
    // traffic evicted from the cache); zero where the model has no such contention.
    virtual Time memory_stall() { return Time{}; }
    // The counters the node's NIC and driver keep beyond the embedded core, host CPU and
    // network ones System::counters adds (DMA commands, interrupts raised, the DSNIC's
    // packets per interrupt), named "nic.<what>" or "driver.<what>".
    virtual void counters(Counters& out) const { (void)out; }
    // One of counters() by name (e.g. "driver.interrupts"); nullopt where there is none.
    std::optional<uint64_t> counter(const std::string& name) const {
        Counters c;
        counters(c);
        return c.find(name);
    }
};

class SystemModel {
public:
    virtual ~SystemModel() = default;

    virtual std::string name() const = 0;     // "seastar", "startx"
    virtual std::string summary() const = 0;  // one line for listings
    // "embedded-core" (firmware on niclab's RV32IM core) or "fixed-function" (an NIU
    // modelled in C++).
    virtual std::string nic_family() const = 0;
    virtual std::string default_preset() const = 0;
    // Every parameter the system's presets may set; Preset checks names, ranges and
    // whole numbers against these.
    virtual std::vector<ParameterDecl> parameters() const = 0;

    // The network between the nodes for this preset (links, routers, frames).
    virtual net::NetworkParams network_params(const Preset& preset) const = 0;
    // The default topology (a system spec's "topology": null) for `nodes` nodes.
    virtual nlohmann::json default_topology(uint32_t nodes) const = 0;
    // Network ports each node cables into the network (terminals.hpp): one unless the
    // system's NIC drives several links (the T9000's t9000.links).
    virtual uint32_t ports_per_node(const Preset& preset) const {
        (void)preset;
        return 1;
    }
    // The default topology for `nodes` nodes of `ports` ports each (ports_per_node).
    virtual nlohmann::json default_topology(uint32_t nodes, uint32_t ports) const {
        (void)ports;
        return default_topology(nodes);
    }
    // Builds node `node` of `sys` (its host memory and CPU already exist; the network
    // too when there is more than one node). Throws ConfigError for a bad part.
    virtual std::unique_ptr<NodeHardware> build_node(System& sys, uint32_t node) const = 0;

    // The host libraries experiments can use, default first.
    virtual std::vector<msg::TransportInfo> transports() const = 0;
    // A transport between `node` and `peer` for a benchmark with payload seed `seed`.
    // `transport` is one of transports(); options are the system's own (validated).
    virtual std::unique_ptr<msg::Transport> open_transport(System& sys, uint32_t node, uint32_t peer,
                                                           const std::string& transport, uint64_t seed) const = 0;
    // What must hold before a transport can be used on this system (e.g. the Portals
    // firmware loaded); the firmware a spec of `nodes` nodes gets when it names none ("" for
    // none). By size, since an image's tables may end at some node count (the SeaStar's).
    virtual std::string default_firmware(uint32_t /*nodes*/) const { return ""; }

    // The published results this system is checked against (published.json): a JSON
    // array of {"key", "quantity", "source", "value", "unit", ...}.
    virtual const nlohmann::json& published() const = 0;
};

// Every modelled system, in a fixed order (seastar first).
const std::vector<const SystemModel*>& system_models();
// The model named `name`; ConfigError("system", ...) listing the known ones otherwise.
const SystemModel& system_model(const std::string& name);

}  // namespace niclab::system
