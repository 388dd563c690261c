#pragma once
// A cluster described as data: which preset, how many nodes, the seed, parameter
// overrides and per-node firmware. Parsed from JSON (Python passes dicts or TOML
// through the same path); every error names its key path.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "niclab/net/topology.hpp"

namespace niclab::system {

struct SystemSpec {
    // The preset, or empty for the default preset of `system` (a spec naming only
    // {"system": "startx"}); `system` empty means "whatever system the preset is of".
    std::string preset = "seastar";
    std::string system;
    uint32_t nodes = 1;
    static constexpr uint32_t kMaxNodes = 1u << 20;  // the most a spec may name
    uint64_t seed = 0;
    nlohmann::json overrides = nlohmann::json::object();  // "set": parameter -> value
    // "parts": part kind -> part name ({"bus": "pci-64-66"}), applied before "set".
    nlohmann::json parts = nlohmann::json::object();
    std::vector<std::string> firmware;  // empty, one for all nodes, or one per node
    // {"kind": NAME, ...}, read by the topology registry (net/topology_registry.hpp:
    // direct, mesh, torus, fat_tree, kary_ntree, crossbar). Null: none for one node, a
    // direct cable for two, an N x 1 x 1 mesh for more, unless the system's model gives
    // its own default.
    nlohmann::json topology;
    // "capture": a packet capture the System opens when it is built (net/capture.hpp):
    // {"file": PATH, "nodes": [ids], "links": [ids]}, or just PATH; no nodes and no
    // links tap every node. Null: none. An observation, not part of the cluster, so
    // to_json() leaves it out (results and sweep caches do not depend on it).
    nlohmann::json capture;
    // "lookahead" (on by default): each NIC core runs to its node's next event, the next
    // event of no node, or the earliest time anything can still happen (the next event or
    // the earliest awake core) plus the network's least cross-node delay
    // (sim::Kernel::set_lookahead, net::Network::lookahead). Besides stopping less, this
    // is the causally exact kernel. `false` selects the older one that stops every core
    // at the next event in the heap: in one pass a core could run past an event another
    // core, later in the same pass, scheduled for its node (two mostly idle SeaStars: a
    // get's round trip 0.26 us (1 B) to 2.3 us (4 KB) longer). Kept to compare; to_json()
    // records it when off.
    // Wormhole networks and output-buffer stages give no lookahead and use the older one.
    bool lookahead = true;
    // "lookahead_hops" (on by default): behind switches of no node (GRIM's crossbar, a fat
    // tree's), where one node's doings reach another over two cables at the soonest, a
    // core runs up to the earliest time plus two lookaheads (net::Network::cross_node_hops,
    // sim::Kernel::set_lookahead's hops); `false`: one. The same times either way; kept to
    // compare, and recorded by to_json() when off.
    bool lookahead_hops = true;
    // "credit_events" (off by default): an event for every credit a router's output gets
    // back, as before credits were kept as times (net::NetworkParams::credit_events). The
    // times are the same either way; kept to compare, and recorded by to_json() when on.
    bool credit_events = false;
    // "send_ahead" (on by default): a NIC's packet that finds its cable busy is sent at
    // once, to start when the cable frees, and a SeaStar TX engine's packet whose data is
    // still streaming in is injected at once as of then (net::NetworkParams::send_ahead);
    // `false` waits for a wake-up event and the engine's event. The same times either way;
    // kept to compare, and recorded by to_json() when off.
    bool send_ahead = true;
    // "lanes" (on by default): a bulk transfer's packets fire as one train from the
    // network's kernel lane while the NIC cores sleep, instead of an event apiece through
    // the heap (sim::Kernel lanes, net::Network::lane). The same events at the
    // same times in the same order either way; `false` is the packet-by-packet path through
    // the heap, kept to compare, and recorded by to_json() when off.
    bool lanes = true;
    // "fire_inline" (on by default): a host process's compute burst whose end would be the
    // next thing to happen ends at once in its fiber, without its event and two fiber
    // switches (sim::Kernel::fire_inline, host::HostCpu), and a PCI DMA burst's
    // arbitration for the next one happens at once likewise (bus::PciBus). The same events at the same
    // times in the same order either way; `false` schedules each, kept to compare, and
    // recorded by to_json() when off.
    bool fire_inline = true;
    // "run_ahead" (on by default): a NIC core whose run reaches its horizon goes on through
    // the instructions that touch only its own state, and stops at the first that reads or
    // writes what the rest of the system shares (core::Cpu::set_run_ahead): fewer runs, the
    // same results to the cycle. A model that reaches into what the core keeps in its caches
    // while the core is ahead is a logic_error naming the SRAM offset. `false` stops every
    // core at its horizon, kept to compare, and recorded by to_json() when off.
    bool run_ahead = true;

    // The network topology (`fallback` when the spec gives none and it is not null) for
    // nodes × `ports` network ports (terminals.hpp); throws ConfigError("topology...")
    // when it does not fit.
    net::TopologySpec topology_spec(const nlohmann::json& fallback = nullptr, uint32_t ports = 1) const;
    bool has_network() const { return nodes > 1; }

    static SystemSpec from_json(const nlohmann::json& j);  // throws ConfigError
    nlohmann::json to_json() const;
};

}  // namespace niclab::system
