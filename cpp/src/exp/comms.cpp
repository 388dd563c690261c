// Parkbench's Comms1 and Comms2 as seed 003 §8 runs them: for each message length the
// processes bounce messages and the latency is half the bounce time.
//  Comms1: one message bounced with blocking communication (the link is used one way
//          at a time): the ping-pong sweep; t_n = bounce / 2, r_n = n / t_n.
//  Comms2: both processes send at once and then receive (both directions busy): the
//          bi-directional sweep; t_n = exchange / 2, r_n = 2n / exchange.
// The linear timing model t_n = t0 + n / r_inf and n_1/2 = t0 * r_inf (seed 003 §8.4,
// §10) is fitted to the latency column.
#include "niclab/exp/fits.hpp"
#include "niclab/exp/programs.hpp"
#include "niclab/system/system.hpp"

namespace niclab::exp {

namespace {

nlohmann::json throughput_json(const ThroughputFit& f) {
    return {{"t0_us", f.t0_us},
            {"r_inf_mb_s", f.r_inf_mb_s},
            {"n_half_bytes", f.n_half_bytes},
            {"r2", f.line.r2},
            {"rms_residual_us", f.line.rms_residual},
            {"points", f.line.points}};
}

// Fits the timing model when there are enough points; a sweep too short for a line
// (or stopped early) keeps its rows and says why it has no fit.
void fit_timing(Result& r) {
    try {
        const auto sizes = r.column("size");
        const auto t = r.column("latency_us");
        // Comms2's r_n counts both directions; the model is fitted to t_n, which is the
        // one-way time in both benchmarks.
        r.fit = throughput_json(fit_throughput(sizes, t));
    } catch (const FitError& e) {
        r.fit = {{"error", e.what()}};
    }
}

// Option per_interrupt = 1: a column packets_per_interrupt, the packets the drivers of
// both nodes handled per interrupt over each point's timed interval (seed 003 §8.3,
// Figs. 9-10), from the counters "driver.packets_handled" and "driver.interrupts" of systems whose
// driver keeps them (NodeHardware::counter); ExperimentError on others.
struct PerInterrupt {
    bool on = false;
    system::System* sys = nullptr;
    uint64_t packets = 0, interrupts = 0;

    static bool wanted(const nlohmann::json& options) {
        return options.is_object() && options.contains("per_interrupt") && options["per_interrupt"].is_number() &&
               options["per_interrupt"].get<double>() != 0;
    }
    void totals(uint64_t& p, uint64_t& i) const {
        p = i = 0;
        for (size_t n = 0; n < sys->node_count(); ++n) {
            const auto dp = sys->hardware(n).counter("driver.packets_handled");
            const auto di = sys->hardware(n).counter("driver.interrupts");
            if (!dp || !di)
                throw ExperimentError("option 'per_interrupt': system '" + sys->model().name() + "' keeps no per-interrupt packet counts");
            p += *dp;
            i += *di;
        }
    }
    SweepHooks hooks() {
        SweepHooks h;
        h.options = [this](Options& o) { on = o.unsigned_int("per_interrupt", 0) != 0; };
        if (!on) return h;
        h.columns = {{"packets_per_interrupt", ""}};
        h.prepare = [this](Bench& bench) {
            sys = &bench.sys();
            totals(packets, interrupts);  // fails before the run on a system without the counts
        };
        h.begin = [this](host::ProcessContext&) { totals(packets, interrupts); };
        h.end = [this](host::ProcessContext&, double) {
            uint64_t p = 0, i = 0;
            totals(p, i);
            return std::vector<double>{i > interrupts ? double(p - packets) / double(i - interrupts) : 0.0};
        };
        return h;
    }
};

Result run_comms(SweepKind kind, const std::string& name, const system::SystemSpec& spec, const nlohmann::json& options,
                 const Observe& observer) {
    PerInterrupt per;
    per.on = PerInterrupt::wanted(options);
    Result r = run_sweep(kind, name, spec, options, observer, per.hooks());
    fit_timing(r);
    return r;
}

}  // namespace

Result run_comms1(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer) {
    return run_comms(SweepKind::pingpong, "comms1", spec, options, observer);
}

Result run_comms2(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer) {
    return run_comms(SweepKind::bidir, "comms2", spec, options, observer);
}

}  // namespace niclab::exp
