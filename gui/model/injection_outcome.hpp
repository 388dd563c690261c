#pragma once
// What the message injector shows of one injection, whichever form sent it (Portals,
// GRIM, a transport): the steps with their simulated times, the delivered bytes checked
// against what was sent, the NI counters the injection moved, and the host library's
// errors. A plain copy, carried from the system worker to the view in the snapshot.
#include <cstdint>
#include <string>
#include <vector>

#include "niclab/sim/time.hpp"

namespace niclab::gui {

struct InjectedEvent {
    size_t node = 0;
    std::string side;   // "initiator", "target", "sender", "receiver", "member" ...
    std::string type;   // "PUT_END" (ptl_event_str without its prefix), "handler ran" ...
    Time time{};
    uint64_t mlength = 0, rlength = 0, offset = 0, match_bits = 0;  // GRIM: bytes, bytes sent, offset, handler / word
    bool ni_fail = false;
};

// One NI counter of one node across the injection.
struct CounterChange {
    size_t node = 0;
    std::string name;  // "grim.acks_sent"
    uint64_t before = 0, after = 0;
};

struct InjectionOutcome {
    std::string summary;                // one line: what was sent and how it ended
    std::vector<InjectedEvent> events;  // every side's, in simulated-time order
    uint64_t bytes_expected = 0;        // where they should have arrived (at every receiver)
    uint64_t bytes_matching = 0;        // of those, equal to the payload sent
    bool complete = false;              // every event the operation owes arrived
    std::vector<std::string> errors;    // the host library's (PortalsError, DeliveryError ...) while performing it
    std::vector<CounterChange> counters;  // the NI counters that matter for the operation (empty: none read)
};

}  // namespace niclab::gui
