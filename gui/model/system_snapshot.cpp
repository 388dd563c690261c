#include "model/system_snapshot.hpp"

namespace niclab::gui {

const char* to_string(NodeState s) {
    switch (s) {
        case NodeState::booting: return "booting";
        case NodeState::running: return "running";
        case NodeState::asleep: return "asleep";
        case NodeState::halted: return "halted";
        case NodeState::faulted: return "faulted";
        case NodeState::dead: return "dead (RAS)";
        case NodeState::niu: return "fixed-function";
    }
    return "?";
}

uint64_t NodeView::counter(const std::string& name) const {
    for (const auto& [n, v] : counters)
        if (n == name) return v;
    return 0;
}

double NodeView::hit_rate(const char* accesses, const char* misses) const {
    const uint64_t a = counter(accesses);
    return a == 0 ? -1.0 : 1.0 - double(counter(misses)) / double(a);
}

}  // namespace niclab::gui
