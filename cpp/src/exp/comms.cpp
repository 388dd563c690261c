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

}  // namespace

Result run_comms1(const system::SystemSpec& spec, const nlohmann::json& options, const PointObserver& observer) {
    Result r = run_sweep(SweepKind::pingpong, "comms1", spec, options, observer);
    fit_timing(r);
    return r;
}

Result run_comms2(const system::SystemSpec& spec, const nlohmann::json& options, const PointObserver& observer) {
    Result r = run_sweep(SweepKind::bidir, "comms2", spec, options, observer);
    fit_timing(r);
    return r;
}

}  // namespace niclab::exp
