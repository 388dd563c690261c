#pragma once
// "Where did the microseconds go" (issue 18): one interval of a run — a timed round
// trip — split along its critical path into the parts that did the work, from the
// spans the parts recorded (sim/activity.hpp).
//
// The path is found backwards from the interval's end on the node where it ends (the
// client, whose call returned): at each moment the part that was last busy on that
// node before it is taken as the predecessor and gets its span; a gap in which nothing
// on the node was busy is "waiting"; a packet delivered to the node moves the path to
// the node that sent it, and its time in the network goes to the network. Every
// picosecond of the interval goes to exactly one part, so the parts sum to it exactly.
// Polling that found nothing (a host spinning on its NIC's status) is waiting, with
// the PIO and library time inside it: the message was not held up by the spin.
// Parts busy during the interval but off the path appear with no time given and their
// `busy` (work that overlapped the path: the other node's bookkeeping, a DMA beside
// the firmware). Ties go to the first in Activity's order.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "niclab/sim/activity.hpp"

namespace niclab::exp {

struct BreakdownPart {
    std::string part;    // activity_name(): "host: library", "firmware", ..., "waiting"
    std::string detail;  // the firmware function; "" otherwise
    int64_t node = -1;   // -1 for waiting
    Time time;           // on the critical path
    Time busy;           // busy in all within the interval
};

struct Breakdown {
    Time start, end;
    std::vector<BreakdownPart> parts;  // in Activity order, then node, then detail; waiting last
    nlohmann::json to_json() const;
};

// The interval [start, end] that ends on node `last` (where the transfer completed).
Breakdown break_down(const sim::ActivityLog& log, Time start, Time end, uint32_t last);

}  // namespace niclab::exp
