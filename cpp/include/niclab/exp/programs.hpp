#pragma once
// The experiment programs. Each runs on a System built from `spec`, reads its options
// (Options: unknown keys are errors), streams its points to `observer` and returns the
// Result with its fitted model where it has one. The registry in experiments.hpp is the
// one entry point the faces (Python, the CLI, the GUI) use.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "niclab/exp/bench.hpp"
#include "niclab/exp/result.hpp"
#include "niclab/system/system_spec.hpp"

namespace niclab::exp {

// NetPIPE-style ping-pong over Portals put or get ("op"): one-way latency = round trip
// / 2 (a get is itself a round trip, so its latency is the get's time / 2) and
// bandwidth = size / time per transfer.
Result run_pingpong(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer);
// NetPIPE's streaming mode: back-to-back messages, one acknowledgement at the end.
Result run_stream(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer);
// NetPIPE's bi-directional mode: both sides send at once; bandwidth counts both directions.
Result run_bidir(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer);

// Ember's Halo3D on every node of the system: faces exchanged with the up to six
// neighbours of a 3-D process grid, one row per iteration (halo3d.cpp).
Result run_halo3d(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer);

// GRIM's multicast benchmark (seed 004 §8.1.7): native NI multicast against N unicast
// copies, injection time and round trip per group size and size (multicast.cpp). GRIM only.
Result run_multicast(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer);

// The network without NICs or hosts under uniform random saturation traffic, per
// packet size: throughput per terminal, latency (net_throughput.cpp).
Result run_net_throughput(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer);

// The ping-pong and bi-directional sweeps as building blocks, for experiments that are
// these sweeps under another name (Comms1, Comms2) or measure more around the same
// timed interval (cpu_load). Every hook is optional.
enum class SweepKind { pingpong, bidir };
struct SweepHooks {
    std::vector<Column> columns;                       // appended to the sweep's columns
    unsigned min_repeats = 2, max_repeats = 20;        // SweepPlan defaults
    std::function<void(Options&)> options;             // reads the experiment's own options
    std::function<void(Bench&)> prepare;        // once the system exists, before the run
    std::function<void()> release;                     // after the run (also a failed one), before the system goes
    // First thing in each side's program (client: true), e.g. its scheduling class.
    std::function<void(host::ProcessContext&, bool client)> enter;
    // When a side's program ends (client: true), returning or by an exception (`failed`;
    // also when an unfinished program is ended). Must not block. With op = get the
    // server's program returns at once: its NAL answers the gets.
    std::function<void(bool client, bool failed)> leave;
    // Client, at the start and the end of each point's timed interval; `end` gets the
    // point's latency (us) and returns the extra columns' values.
    std::function<void(host::ProcessContext&)> begin;
    std::function<std::vector<double>(host::ProcessContext&, double latency_us)> end;
};
Result run_sweep(SweepKind kind, const std::string& name, const system::SystemSpec& spec, const nlohmann::json& options,
                 const Observe& observer, const SweepHooks& hooks = {});

// Culler et al.'s LogP signature (seed 002 §6.1): T_total/m against m for several
// delays d; o_s, o_r, g and L extracted (extract_logp) with a separate round trip.
Result run_logp_signature(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer);
// LogGP by parametrized round trips, as Netgauge's "loggp" pattern: PRTT(1,0,s),
// PRTT(n,0,s), PRTT(n,d,s) and o_r per size; fitted by fit_loggp.
Result run_prtt(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer);
// Parkbench Comms1 (a bounced message) and Comms2 (simultaneous exchange) as seed 003
// §8 uses them, with the timing model t_n = t0 + n / r_inf fitted.
Result run_comms1(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer);
Result run_comms2(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer);
// Seed 003 §8.4 / §10.1: the CPU load communication leaves on both hosts, measured by a
// computing process beside the (realtime) communicating one; c_n = l_n * t_n fitted.
Result run_cpu_load(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer);

}  // namespace niclab::exp
