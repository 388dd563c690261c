// Portals put ping-pong between two SeaStar nodes through the whole stack (host
// library and generic-mode driver, the C Portals firmware, DMA, network), as
// NetPIPE's Portals module runs it: one match entry and MD per side, a put answered
// by a put. Argument: the message size. Counters: the simulated one-way latency
// (round trip / 2, us), simulated messages per host second, and kernel events per
// host second. The timed part is the ping-pong only.
#include <algorithm>
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "niclab/core/code_pool.hpp"
#include "niclab/systems/seastar/seastar.hpp"
#include "niclab/host/process.hpp"
#include "niclab/msg/portals/ni.hpp"
#include "niclab/system/system.hpp"

using namespace niclab;
using namespace niclab::portals;

namespace {

constexpr int kRoundTrips = 200;

// Two SeaStar nodes with the C Portals firmware and a Portals NI on each.
struct TwoNodes {
    system::System sys;
    std::unique_ptr<Ni> ni[2];
    static system::SystemSpec spec() {
        system::SystemSpec s;
        s.nodes = 2;
        s.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/portals/portals.elf"};
        return s;
    }
    TwoNodes() : sys(spec()) {
        for (uint32_t n = 0; n < 2; ++n) ni[n] = std::make_unique<Ni>(seastar::portals(sys, n), 0);
    }
};

// One side of the ping-pong: `first` sends first; each put is answered by a put. The
// receive MD is remotely managed, so every put lands at offset 0 of the buffer. `at(i)`
// runs before round trip i (and after the last, i = count).
template <typename At>
void player(host::ProcessContext& ctx, Ni& ni, uint32_t peer, uint32_t bytes, bool first, int count, At at) {
    auto eq = ni.eq_alloc(ctx, 64);
    auto me = ni.me_attach(ctx, 0, {peer, 0}, 1, 0, PTL_RETAIN, PTL_INS_AFTER);
    ni.md_attach(ctx, me, ptl_md(0x200000, bytes, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE, eq), PTL_RETAIN);
    auto out = ni.md_bind(ctx, ptl_md(0x100000, bytes, 0, PTL_EQ_NONE), PTL_RETAIN);
    ctx.sleep_for(Time::us(10));  // both sides are ready
    for (int i = 0; i < count; ++i) {
        at(i);
        if (first) ni.put(ctx, out, PTL_NOACK_REQ, {peer, 0}, 0, 0, 1, 0);
        while (ni.eq_wait(ctx, eq).type != PTL_EVENT_PUT_END) {}
        if (!first) ni.put(ctx, out, PTL_NOACK_REQ, {peer, 0}, 0, 0, 1, 0);
    }
    at(count);
}

// The run did not finish both sides: the benchmark's error, "" if it did.
std::string incomplete(const host::Process& pa, const host::Process& pb) {
    if (pa.done() && pb.done() && !pa.failed() && !pb.failed()) return "";
    const std::string why = pa.failed() ? pa.error_message() : pb.failed() ? pb.error_message() : "it stalled";
    return "the ping-pong did not complete: " + why;
}

void BM_PortalsPutPingPong(benchmark::State& state) {
    const uint32_t bytes = uint32_t(state.range(0));
    double one_way_us = 0;
    uint64_t events = 0, messages = 0;
    for (auto _ : state) {
        state.PauseTiming();
        TwoNodes two;
        Time start, end;
        auto clock = [&](int i) { (i == 0 ? start : end) = two.sys.now(); };
        host::Process pa(two.sys.host_cpu(0), "ping", [&](host::ProcessContext& ctx) { player(ctx, *two.ni[0], 1, bytes, true, kRoundTrips, clock); });
        host::Process pb(two.sys.host_cpu(1), "pong", [&](host::ProcessContext& ctx) { player(ctx, *two.ni[1], 0, bytes, false, kRoundTrips, [](int) {}); });
        const uint64_t events0 = two.sys.kernel().events_fired();
        state.ResumeTiming();

        two.sys.run_until(Time::max());

        state.PauseTiming();
        if (const std::string error = incomplete(pa, pb); !error.empty()) {
            state.SkipWithError(error.c_str());
            break;  // no ResumeTiming after an error
        }
        events += two.sys.kernel().events_fired() - events0;
        messages += 2 * kRoundTrips;
        one_way_us = (end - start).as_us() / kRoundTrips / 2;
        state.ResumeTiming();
    }
    state.counters["sim_one_way_us"] = one_way_us;
    state.counters["messages_per_s"] = benchmark::Counter(double(messages), benchmark::Counter::kIsRate);
    state.counters["events_per_s"] = benchmark::Counter(double(events), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PortalsPutPingPong)->Arg(0)->Arg(1)->Arg(12)->Arg(16)->Arg(1024)->Arg(65536)->Unit(benchmark::kMillisecond);

// The steady state alone: the system is built, booted and warmed up by kWarmup round
// trips outside the timing (the ping side stops the kernel there), then the timed part
// is kRoundTrips round trips and nothing else. Counter: round trips per CPU second of
// the simulating thread (Google Benchmark rates use CPU time), so other load on the
// machine does not move it.
constexpr int kWarmup = 50;

void BM_PortalsPutPingPongSteady(benchmark::State& state) {
    const uint32_t bytes = uint32_t(state.range(0));
    uint64_t round_trips = 0, instructions = 0, events = 0, runs = 0, visits = 0, held_node = 0, held_neighbours = 0, core_runs = 0,
             private_runs = 0;
    using Hold = sim::Kernel::Hold;
    for (auto _ : state) {
        state.PauseTiming();
        TwoNodes two;
        auto warmed = [&](int i) {
            if (i == kWarmup) two.sys.kernel().request_stop();  // the timed part starts here
        };
        host::Process pa(two.sys.host_cpu(0), "ping", [&](host::ProcessContext& ctx) { player(ctx, *two.ni[0], 1, bytes, true, kWarmup + kRoundTrips, warmed); });
        host::Process pb(two.sys.host_cpu(1), "pong", [&](host::ProcessContext& ctx) { player(ctx, *two.ni[1], 0, bytes, false, kWarmup + kRoundTrips, [](int) {}); });
        two.sys.run_until(Time::max());  // to the end of the warm-up
        // A figure of the two NIC cores' (a core::Cpu member), summed.
        const auto both = [&](uint64_t (core::Cpu::*figure)() const) {
            return (two.sys.nic(0).cpu().*figure)() + (two.sys.nic(1).cpu().*figure)();
        };
        const uint64_t instret0 = both(&core::Cpu::instret), core_runs0 = both(&core::Cpu::runs),
                       private0 = both(&core::Cpu::private_runs);
        const uint64_t events0 = two.sys.kernel().events_fired(), runs0 = two.sys.kernel().runnable_runs(),
                       visits0 = two.sys.kernel().runnable_visits();
        const uint64_t node0 = two.sys.kernel().runs_held_by(Hold::Node) + two.sys.kernel().runs_held_by(Hold::NoNode),
                       neighbours0 = two.sys.kernel().runs_held_by(Hold::Neighbours);
        state.ResumeTiming();

        two.sys.run_until(Time::max());

        state.PauseTiming();
        runs += two.sys.kernel().runnable_runs() - runs0;
        visits += two.sys.kernel().runnable_visits() - visits0;
        held_node += two.sys.kernel().runs_held_by(Hold::Node) + two.sys.kernel().runs_held_by(Hold::NoNode) - node0;
        held_neighbours += two.sys.kernel().runs_held_by(Hold::Neighbours) - neighbours0;
        instructions += both(&core::Cpu::instret) - instret0;
        core_runs += both(&core::Cpu::runs) - core_runs0;
        private_runs += both(&core::Cpu::private_runs) - private0;
        events += two.sys.kernel().events_fired() - events0;
        if (const std::string error = incomplete(pa, pb); !error.empty()) {
            state.SkipWithError(error.c_str());
            break;
        }
        round_trips += kRoundTrips;
        state.ResumeTiming();
    }
    state.counters["round_trips_per_s"] = benchmark::Counter(double(round_trips), benchmark::Counter::kIsRate);
    // Where a round trip's host time goes: firmware instructions on both NICs, and
    // kernel events (device completions, packets, host process steps), and the cores'
    // runs (each a stretch of firmware up to a device access's time or the horizon).
    const double rts = double(std::max<uint64_t>(round_trips, 1));
    state.counters["fw_instr_per_rt"] = double(instructions) / rts;
    state.counters["events_per_rt"] = double(events) / rts;
    state.counters["runs_per_rt"] = double(runs) / rts;
    // Looks at a core that found its horizon not past its clock (kernel work for nothing).
    state.counters["idle_visits_per_rt"] = double(visits - runs) / rts;
    // What ended those runs (sim::Kernel::Hold): the core's own node's next event, or what
    // its neighbour can do a lookahead on (while both cores are awake: the other core's
    // clock plus its reach, 170 ns on the SeaStar pair), in percent of the runs.
    const double all_runs = double(std::max<uint64_t>(runs, 1));
    state.counters["held_node_pct"] = 100.0 * double(held_node) / all_runs;
    state.counters["held_neighbours_pct"] = 100.0 * double(held_neighbours) / all_runs;
    // The cores' runs that made no device or uncached access and did not sleep
    // (core::Cpu::private_runs): ended by the horizon, or, running ahead, at a shared access
    // left to the next run.
    state.counters["private_runs_pct"] = 100.0 * double(private_runs) / double(std::max<uint64_t>(core_runs, 1));
}
BENCHMARK(BM_PortalsPutPingPongSteady)->Arg(0)->Arg(8)->Unit(benchmark::kMillisecond);

// A notebook cell's smallest experiment from nothing: the two-node system built (its
// firmware loaded and booted), both processes set up, one 0-byte round trip, the system
// gone. Argument: 1 with the code pools recycled (core::CodePool::take, the default), so
// each system after the first starts with its firmware's code decoded and translated; 0
// with a fresh pool each time. Counter: systems a CPU second.
void BM_PortalsFirstRoundTrip(benchmark::State& state) {
    core::CodePool::set_recycling(state.range(0) != 0);
    uint64_t systems = 0;
    for (auto _ : state) {
        TwoNodes two;
        host::Process pa(two.sys.host_cpu(0), "ping", [&](host::ProcessContext& ctx) { player(ctx, *two.ni[0], 1, 0, true, 1, [](int) {}); });
        host::Process pb(two.sys.host_cpu(1), "pong", [&](host::ProcessContext& ctx) { player(ctx, *two.ni[1], 0, 0, false, 1, [](int) {}); });
        two.sys.run_until(Time::max());
        if (const std::string error = incomplete(pa, pb); !error.empty()) {
            state.SkipWithError(error.c_str());
            break;
        }
        ++systems;
    }
    core::CodePool::set_recycling(true);
    state.counters["systems_per_s"] = benchmark::Counter(double(systems), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PortalsFirstRoundTrip)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
