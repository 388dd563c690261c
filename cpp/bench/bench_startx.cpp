// The StarT-X (seed 002) as researchers run it: simulated PIO messages per host second in a
// ping-pong of the smallest JAM messages (pio, n = 0 and n = 8: Table 1 row (a)'s 16-byte
// message), and the wall time of the NetPIPE ping-pong sweeps over PIO up to 64 KB (the host
// stores and loads every word: a dozen short compute bursts a message) and over RDMA up to
// 1 MB (Fig. 6(a)).
// Counters: simulated messages per host second, points measured, simulated bandwidth at the
// largest size. No firmware: the StarT-X NIU is modelled in C++.
#include <benchmark/benchmark.h>

#include <string>

#include "experiment_bench.hpp"

using namespace niclab;

namespace {

system::SystemSpec startx_pair(bool fire_inline = true) {
    system::SystemSpec spec;
    spec.preset = "";
    spec.system = "startx";
    spec.nodes = 2;
    spec.fire_inline = fire_inline;
    return spec;
}

void run(benchmark::State& state, const char* experiment, nlohmann::json options) {
    bench::run_experiment(state, startx_pair(), experiment, options);
}

// 1000 round trips of one PIO message each way.
void BM_PioPingPong0B(benchmark::State& state) {
    run(state, "pingpong", {{"transport", "pio"}, {"sizes", {0}}, {"repeats", 1000}});
}
void BM_PioPingPong8B(benchmark::State& state) {
    run(state, "pingpong", {{"transport", "pio"}, {"sizes", {8}}, {"repeats", 1000}});
}
void BM_PioPingPongSweepTo64KB(benchmark::State& state) {
    run(state, "pingpong", {{"transport", "pio"}, {"max_size", 64 << 10}});
}
// The same with an event for every host burst (SystemSpec::fire_inline off): what ending
// bursts at once saves.
void BM_PioPingPongSweepTo64KB_EventPerBurst(benchmark::State& state) {
    bench::run_experiment(state, startx_pair(false), "pingpong", {{"transport", "pio"}, {"max_size", 64 << 10}});
}
void BM_RdmaPingPongSweepTo1MB(benchmark::State& state) {
    run(state, "pingpong", {{"transport", "rdma"}, {"max_size", 1 << 20}});
}

BENCHMARK(BM_PioPingPong0B)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PioPingPong8B)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PioPingPongSweepTo64KB)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_PioPingPongSweepTo64KB_EventPerBurst)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_RdmaPingPongSweepTo1MB)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
