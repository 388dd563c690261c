// Wall time of whole experiments as researchers run them: the NetPIPE put ping-pong
// sweep from 1 B to 8 MB on the two-node SeaStar (the "a few seconds"), its
// streaming and bi-directional variants, and 0-byte ping-pong throughput in simulated
// messages per host second. Counters: points measured, simulated messages per host
// second, and the simulated bandwidth at the largest size.
#include <benchmark/benchmark.h>

#include <string>

#include "experiment_bench.hpp"

using namespace niclab;

namespace {

system::SystemSpec seastar_pair(bool lanes = true) {
    system::SystemSpec spec;
    spec.nodes = 2;
    spec.lanes = lanes;
    spec.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/portals/portals.elf"};
    return spec;
}

void run_sweep(benchmark::State& state, const char* experiment, nlohmann::json options) {
    bench::run_experiment(state, seastar_pair(), experiment, options);
}

void BM_NetpipePutPingPong1BTo8MB(benchmark::State& state) { run_sweep(state, "pingpong", {{"max_size", 8 << 20}}); }
// The same, packet by packet through the kernel's heap (SystemSpec::lanes off): what the
// bulk-transfer fast path saves.
void BM_NetpipePutPingPong1BTo8MB_PacketByPacket(benchmark::State& state) {
    bench::run_experiment(state, seastar_pair(false), "pingpong", {{"max_size", 8 << 20}});
}
void BM_NetpipePutStream1BTo8MB(benchmark::State& state) { run_sweep(state, "stream", {{"max_size", 8 << 20}}); }
void BM_NetpipePutBidir1BTo8MB(benchmark::State& state) { run_sweep(state, "bidir", {{"max_size", 8 << 20}}); }
// 0-byte ping-pong: 1000 round trips in one point.
void BM_ZeroBytePingPong(benchmark::State& state) { run_sweep(state, "pingpong", {{"sizes", {0}}, {"repeats", 1000}}); }

BENCHMARK(BM_NetpipePutPingPong1BTo8MB)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_NetpipePutPingPong1BTo8MB_PacketByPacket)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_NetpipePutStream1BTo8MB)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_NetpipePutBidir1BTo8MB)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_ZeroBytePingPong)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
