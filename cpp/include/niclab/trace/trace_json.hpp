#pragma once
// A trace as JSON, for an experiment's Result (its observations): the header fields of
// traces/FORMAT.md by name and the records as [timestamp, word] pairs. Reading it back
// gives exactly the same Trace, checked as a trace file is.
#include <nlohmann/json.hpp>

#include "niclab/trace/trace.hpp"

namespace niclab::trace {

nlohmann::json to_json(const Trace& trace);
// Throws TraceError naming the key that is missing or of the wrong type, or what a
// trace file reader would refuse.
Trace from_json(const nlohmann::json& j);

}  // namespace niclab::trace
