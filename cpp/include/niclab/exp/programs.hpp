#pragma once
// The experiment programs. Each runs on a System built from `spec`, reads its options
// (Options: unknown keys are errors), streams its points to `observer` and returns the
// Result with its fitted model where it has one. The registry in experiments.hpp is the
// one entry point the faces (Python, the CLI, the GUI) use.
#include <nlohmann/json.hpp>

#include "niclab/exp/portals_bench.hpp"
#include "niclab/exp/result.hpp"
#include "niclab/system/system_spec.hpp"

namespace niclab::exp {

// NetPIPE-style ping-pong over Portals put or get ("op"): one-way latency = round trip
// / 2 (a get is itself a round trip, so its latency is the get's time / 2) and
// bandwidth = size / time per transfer.
Result run_pingpong(const system::SystemSpec& spec, const nlohmann::json& options, const PointObserver& observer);
// NetPIPE's streaming mode: back-to-back messages, one acknowledgement at the end.
Result run_stream(const system::SystemSpec& spec, const nlohmann::json& options, const PointObserver& observer);
// NetPIPE's bi-directional mode: both sides send at once; bandwidth counts both directions.
Result run_bidir(const system::SystemSpec& spec, const nlohmann::json& options, const PointObserver& observer);

}  // namespace niclab::exp
