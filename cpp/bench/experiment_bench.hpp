#pragma once
// One benchmark loop for whole experiments (bench_sweep, bench_startx): runs `experiment`
// on `spec` each iteration and reports points measured, simulated messages per host second
// (a ping-pong round trip or an exchange is two messages) and the simulated bandwidth at
// the largest size.
#include <benchmark/benchmark.h>

#include "niclab/exp/experiments.hpp"

namespace niclab::bench {

inline void run_experiment(benchmark::State& state, const system::SystemSpec& spec, const char* experiment,
                           const nlohmann::json& options) {
    double points = 0, messages = 0, last_bw = 0;
    for (auto _ : state) {
        auto r = exp::run_experiment(experiment, spec, options);
        points += double(r.rows());
        for (double n : r.column("repeats")) messages += 2 * n;
        last_bw = r.column("bandwidth_mb_s").back();
    }
    state.counters["points"] = benchmark::Counter(points / double(state.iterations()));
    state.counters["sim_msgs_per_s"] = benchmark::Counter(messages, benchmark::Counter::kIsRate);
    state.counters["sim_bw_last_mb_s"] = last_bw;
}

}  // namespace niclab::bench
