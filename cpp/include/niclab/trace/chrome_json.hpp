#pragma once
// Decoded traces as Chrome trace-event JSON, for Perfetto (ui.perfetto.dev) and
// chrome://tracing: the one writer behind `niclab run --perfetto`, niclab.trace's
// to_chrome_json and the GUI trace viewer's "Export to Perfetto".
//
// One track per node (pid = node id, tid 0), an instant event per record named
// function+offset with args value, pc and source, and a duration event per span: a
// trace value v in 1..127 opens a span and v | 0x80 closes the most recent open span
// v of the same node; the span is named after the function of its opening trace point
// and "[v]". Values 0 and 128, unmatched opens and unmatched closes are instants only.
// Timestamps are microseconds of global simulated time, so several nodes' traces line
// up (a trace without a time axis, a version-1 file, falls back to its core's clock).
#include <cstdint>
#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "niclab/trace/decoder.hpp"

namespace niclab::trace {

struct ChromeTrack {
    uint32_t node = 0;
    bool simulated_time = true;  // the trace has an epoch (sim_time_ns); else its core's time_ns
    const std::vector<DecodedRecord>* records = nullptr;
};

// The events of one node's track, in record order (spans after their closing instant).
nlohmann::ordered_json chrome_events(const ChromeTrack& track);
// The whole document: {"traceEvents", "displayTimeUnit", "otherData"}.
nlohmann::ordered_json chrome_trace(const std::vector<ChromeTrack>& tracks);
// Writes chrome_trace(tracks) to `path`; TraceError naming the file if it cannot.
void write_chrome_trace(const std::vector<ChromeTrack>& tracks, const std::filesystem::path& path);

}  // namespace niclab::trace
