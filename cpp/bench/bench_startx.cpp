// The StarT-X (seed 002) as researchers run it: simulated PIO messages per host second in a
// ping-pong of the smallest JAM messages (pio, n = 0 and n = 8: Table 1 row (a)'s 16-byte
// message), and the wall time of the NetPIPE ping-pong sweep over RDMA up to 1 MB (Fig. 6(a)).
// Counters: simulated messages per host second, points measured, simulated bandwidth at the
// largest size. No firmware: the StarT-X NIU is modelled in C++.
#include <benchmark/benchmark.h>

#include <string>

#include "niclab/exp/experiments.hpp"

using namespace niclab;

namespace {

system::SystemSpec startx_pair() {
    system::SystemSpec spec;
    spec.preset = "";
    spec.system = "startx";
    spec.nodes = 2;
    return spec;
}

void run(benchmark::State& state, const char* experiment, nlohmann::json options) {
    double points = 0, messages = 0, last_bw = 0;
    for (auto _ : state) {
        auto r = exp::run_experiment(experiment, startx_pair(), options);
        points += double(r.rows());
        for (double n : r.column("repeats")) messages += 2 * n;  // a round trip is two messages
        last_bw = r.column("bandwidth_mb_s").back();
    }
    state.counters["points"] = benchmark::Counter(points / double(state.iterations()));
    state.counters["sim_msgs_per_s"] = benchmark::Counter(messages, benchmark::Counter::kIsRate);
    state.counters["sim_bw_last_mb_s"] = last_bw;
}

// 1000 round trips of one PIO message each way.
void BM_PioPingPong0B(benchmark::State& state) {
    run(state, "pingpong", {{"transport", "pio"}, {"sizes", {0}}, {"repeats", 1000}});
}
void BM_PioPingPong8B(benchmark::State& state) {
    run(state, "pingpong", {{"transport", "pio"}, {"sizes", {8}}, {"repeats", 1000}});
}
void BM_RdmaPingPongSweepTo1MB(benchmark::State& state) {
    run(state, "pingpong", {{"transport", "rdma"}, {"max_size", 1 << 20}});
}

BENCHMARK(BM_PioPingPong0B)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PioPingPong8B)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RdmaPingPongSweepTo1MB)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
