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

uint64_t NodeView::counter(std::string_view name) const {
    if (!counter_names) return 0;
    for (size_t i = 0; i < counter_names->size(); ++i)
        if ((*counter_names)[i] == name) return counter_values[i];
    return 0;
}

double NodeView::hit_rate(const char* accesses, const char* misses) const {
    const uint64_t a = counter(accesses);
    return a == 0 ? -1.0 : 1.0 - double(counter(misses)) / double(a);
}

}  // namespace niclab::gui
