#pragma once
// What the system view shows of a cluster at one simulated instant: each node's state
// and counters, the topology's cables with their recent utilization. A plain copy,
// made on the worker thread and read by the view's timer.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/injection_outcome.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::gui {

enum class NodeState { booting, running, asleep, halted, faulted, dead, niu };

const char* to_string(NodeState s);

struct NodeView {
    NodeState state = NodeState::booting;
    std::string reason;  // faulted: the fault report; dead: RAS's reason
    // The counters' names, shared by every node of the snapshot whose counters have the
    // same names in the same order (Red Storm's 10,368 nodes share one list), and this
    // node's values, name by name.
    std::shared_ptr<const std::vector<std::string>> counter_names;
    std::vector<uint64_t> counter_values;
    double tx_utilization = 0, rx_utilization = 0;  // of its cables, since the last snapshot
    std::string firmware;      // the loaded image's name ("" for a fixed-function NIU)
    uint32_t sram_used = 0, sram_size = 0;  // bytes
    std::string fault_source;  // faulted: the faulting PC's source file here, and its line
    int fault_line = 0;

    uint64_t counter(std::string_view name) const;
    // 1 - misses / accesses; negative when there were no accesses.
    double hit_rate(const char* accesses, const char* misses) const;
};

// A cable end: a node's NIC or a router.
struct Vertex {
    bool node = true;
    uint32_t id = 0;
    bool operator==(const Vertex&) const = default;
};

struct Cable {
    Vertex a, b;
    double utilization = 0;  // the busier direction, since the last snapshot (node cables only)
};

struct SystemSnapshot {
    enum class Phase { empty, building, paused, running, idle, failed };
    uint64_t version = 0;
    Phase phase = Phase::empty;
    std::string error;        // failed: why the system could not be built
    std::string description;  // preset, nodes, firmware
    Time now{};
    uint32_t routers = 0;
    std::vector<NodeView> nodes;
    std::vector<Cable> cables;
    // What the last firmware load said (a size report, or the error): `notice_id`
    // grows with each, so a view that skipped snapshots still sees it once.
    uint64_t notice_id = 0;
    std::string notice;
    bool notice_error = false;
    // The message injector: why this system takes no Portals messages, and why no GRIM
    // operations ("" when it does), the transports its host libraries offer (default first), and the last
    // injection's outcome or error, `injection_id` growing with each.
    std::string portals_unsupported;
    std::string grim_unsupported;
    std::vector<std::string> transports;
    uint64_t injection_id = 0;
    std::shared_ptr<const InjectionOutcome> injection;
    std::string injection_error;
};

}  // namespace niclab::gui
