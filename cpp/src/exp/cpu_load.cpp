// The CPU load of communication, as seed 003 §8.4 measures it: on each of the two
// hosts a computation process runs beside the communicating one and counts the CPU it
// still gets; the communicating process runs in the realtime class (seed 003: "a high
// priority real-time scheduling strategy"), so it is scheduled in as soon as its
// blocking communication has finished and the computation only gets what is left.
//
//  - The computation process computes in quanta of `quantum_us` and counts them. The
//    simulated host has no other load, so its unloaded rate is exactly one quantum per
//    quantum_us (the seed measures that rate beforehand).
//  - Per message size, over the client's timed interval of the sweep (the Comms1 or
//    Comms2 repetitions, after the warm-up), load = 1 - quanta counted * quantum /
//    interval, on the client's host and on the server's (both counters are read at the
//    client's start and end of the interval). The count is whole quanta, so a load is
//    exact to about a quantum per interval.
//  - cpu_us_per_msg = load (client) * t_n, the CPU time one message costs (seed 003
//    §10.1: l_n = c_n / t_n); c_n = c0 + c_byte * n is fitted to it, and
//    t_n = t0 + n / r_inf to the latency.
// The load includes everything the communicating side costs its host: the system calls
// of the host library, the interrupts of its driver, the context switches between the
// two, and what the node's memory system takes from the computation (NodeHardware::
// memory_stall: the T9000's VCP stealing memory cycles and evicting its cache lines) (seed 003 §8.4 runs the computation as a separate process or as a thread of the
// communicating one: option `compute`; a thread shares its address space, so switching
// to it costs host.context_switch_ns only, a process host.address_space_switch_ns more).
#include <memory>

#include "niclab/exp/fits.hpp"
#include "niclab/exp/programs.hpp"

namespace niclab::exp {

namespace {

struct LoadProbe {
    Time quantum;
    bool quit = false;
    bool thread = false;  // the computation is a thread of the communicating process
    bool go[2] = {false, false};  // client, server: its communicating process is realtime now
    uint64_t quanta[2] = {0, 0};
    host::Condition changed;
    std::unique_ptr<host::Process> compute[2];

    // Interval bookkeeping (client's).
    Time start;
    uint64_t at_start[2] = {0, 0};

    double load_percent(int side, Time now) const {
        const double interval = (now - start).as_us();
        const double achieved = double(quanta[side] - at_start[side]) * quantum.as_us();
        return 100.0 * (1.0 - achieved / interval);
    }
};

}  // namespace

Result run_cpu_load(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer) {
    // The pattern decides the sweep before the options are read; reading it again below
    // checks it (and names the key when it is wrong).
    SweepKind kind = SweepKind::pingpong;
    if (options.is_object() && options.contains("pattern") && options["pattern"] == "comms2") kind = SweepKind::bidir;

    LoadProbe probe;
    SweepHooks hooks;
    hooks.columns = {{"load_percent", "%"}, {"load_percent_server", "%"}, {"cpu_us_per_msg", "us"}};
    // Long enough intervals that a quantum is a small part of them.
    hooks.min_repeats = 10;
    hooks.max_repeats = 100;
    hooks.options = [&](Options& o) {
        o.text("pattern", "comms1", {"comms1", "comms2"});
        probe.thread = o.text("compute", "process", {"process", "thread"}) == "thread";
        const double q = o.number("quantum_us", 1.0);
        if (!(q > 0) || q > 1e6) throw ExperimentError("cpu_load: option 'quantum_us' must be > 0 and at most 1e6 (got " + std::to_string(q) + ")");
        probe.quantum = Time::ps(int64_t(q * 1e6 + 0.5));
        if (probe.quantum <= Time{}) throw ExperimentError("cpu_load: option 'quantum_us' is below a picosecond");
    };
    hooks.prepare = [&](Bench& bench) {
        const uint32_t nodes[2] = {bench.pair().client, bench.pair().server};
        for (int i = 0; i < 2; ++i)
            probe.compute[i] = std::make_unique<host::Process>(
                bench.sys().host_cpu(nodes[i]), "compute",
                [&probe, i, &hw = bench.sys().hardware(nodes[i])](host::ProcessContext& ctx) {
                    // Starts once its neighbour is realtime: a computing user process
                    // would otherwise keep the core from it (user processes do not preempt).
                    ctx.wait_for(probe.changed, [&] { return probe.go[i] || probe.quit; });
                    while (!probe.quit) {
                        // A quantum's work, and what the node's memory system took from
                        // it meanwhile (the T9000's VCP on the shared memory port).
                        ctx.compute(probe.quantum + hw.memory_stall());
                        ++probe.quanta[i];
                    }
                });
    };
    hooks.release = [&] {
        for (auto& p : probe.compute) p.reset();
    };
    hooks.enter = [&](host::ProcessContext& ctx, bool client) {
        ctx.set_priority(host::Priority::realtime);
        if (probe.thread) probe.compute[client ? 0 : 1]->share_address_space_with(ctx.process());
        probe.go[client ? 0 : 1] = true;
        probe.changed.notify_all();
    };
    // The client's program ending, or the server's failing, ends the computation, so the
    // run can come to rest (and a failure is reported instead of the computation running
    // forever). A get server's program returns at once; its host keeps computing.
    hooks.leave = [&](bool client, bool failed) {
        if (!client && !failed) return;
        probe.quit = true;
        probe.changed.notify_all();
    };
    hooks.begin = [&](host::ProcessContext& ctx) {
        probe.start = ctx.now();
        probe.at_start[0] = probe.quanta[0];
        probe.at_start[1] = probe.quanta[1];
    };
    hooks.end = [&](host::ProcessContext& ctx, double latency_us) {
        const double client = probe.load_percent(0, ctx.now());
        const double server = probe.load_percent(1, ctx.now());
        return std::vector<double>{client, server, client / 100.0 * latency_us};
    };

    Result r = run_sweep(kind, "cpu_load", spec, options, observer, hooks);
    try {
        const auto sizes = r.column("size");
        const ThroughputFit t = fit_throughput(sizes, r.column("latency_us"));
        const CpuLoadFit c = fit_cpu_load(sizes, r.column("cpu_us_per_msg"), t);
        r.fit = {{"c0_us", c.c0_us},           {"c_byte_ns", c.c_byte_ns}, {"l0_percent", c.l0_percent},
                 {"l_inf_percent", c.l_inf_percent}, {"t0_us", t.t0_us},       {"r_inf_mb_s", t.r_inf_mb_s},
                 {"n_half_bytes", t.n_half_bytes},   {"cpu_r2", c.line.r2},     {"time_r2", t.line.r2}};
    } catch (const FitError& e) {
        r.fit = {{"error", e.what()}};
    }
    return r;
}

}  // namespace niclab::exp
