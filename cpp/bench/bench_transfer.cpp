// End-to-end simulation speed: one 8 MB raw message (raw_msg firmware, mailbox ->
// TX DMA -> network -> RX DMA -> host memory) between two nodes on a direct cable,
// and between far corners of a 4x4x4 mesh. The timed part is the simulation of the
// transfer only (building the system and loading the firmware are excluded).
// Counters: the simulated one-way time (send posted -> receive seen by the host, us),
// the simulated bandwidth (MB/s = bytes per us), and kernel events per host second.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "niclab/systems/seastar/seastar.hpp"
#include "niclab/fw/hw.h"
#include "niclab/host/process.hpp"
#include "niclab/systems/seastar/raw_nic.hpp"
#include "niclab/system/system.hpp"

using namespace niclab;

namespace {

constexpr uint32_t kBytes = 8u << 20;

void run_transfer(benchmark::State& state, uint32_t nodes, nlohmann::json topology, uint32_t dst, bool lanes = true) {
    double sim_us = 0;
    uint64_t events = 0;
    const std::vector<uint8_t> data(kBytes, 0x5A);
    for (auto _ : state) {
        state.PauseTiming();
        system::SystemSpec spec;
        spec.nodes = nodes;
        spec.topology = topology;
        spec.lanes = lanes;
        spec.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/examples/raw_msg.elf"};
        system::System sys(spec);
        sys.host_memory(0).write(0x100000, data);
        seastar::RawNic tx(seastar::seastar_nic(sys, 0), sys.host_cpu(0));
        seastar::RawNic rx(seastar::seastar_nic(sys, dst), sys.host_cpu(dst));
        Time posted{}, seen{};
        uint32_t status = ~0u;
        host::Process receiver(sys.host_cpu(dst), "receiver", [&](host::ProcessContext& ctx) {
            rx.post_receive(ctx, 0x200000, kBytes, 2);
            seastar::RawResult r = rx.wait(ctx);
            seen = r.when;
            status = r.status;
        });
        host::Process sender(sys.host_cpu(0), "sender", [&](host::ProcessContext& ctx) {
            ctx.sleep_for(Time::us(5));  // the receive is posted first
            posted = ctx.now();
            tx.send(ctx, dst, 0x100000, kBytes, 1);
            tx.wait(ctx);
        });
        const uint64_t events0 = sys.kernel().events_fired();
        state.ResumeTiming();

        sys.run_until(Time::max());

        state.PauseTiming();
        events += sys.kernel().events_fired() - events0;
        if (!receiver.done() || !sender.done() || status != NICLAB_DMA_OK) {
            state.SkipWithError("the transfer did not complete");
            state.ResumeTiming();
            break;
        }
        sim_us = (seen - posted).as_us();
        state.ResumeTiming();
    }
    state.counters["sim_one_way_us"] = sim_us;
    state.counters["sim_MB_per_s"] = sim_us > 0 ? kBytes / sim_us : 0.0;
    state.counters["events_per_s"] = benchmark::Counter(double(events), benchmark::Counter::kIsRate);
}

void BM_Transfer8MB_DirectCable(benchmark::State& state) { run_transfer(state, 2, nullptr, 1); }
// Packet by packet through the kernel's heap (SystemSpec::lanes off): what the fast path saves.
void BM_Transfer8MB_DirectCable_PacketByPacket(benchmark::State& state) { run_transfer(state, 2, nullptr, 1, false); }
void BM_Transfer8MB_Mesh4x4x4CornerToCorner(benchmark::State& state) {
    run_transfer(state, 64, {{"kind", "mesh"}, {"dims", {4, 4, 4}}}, 63);
}
void BM_Transfer8MB_Mesh4x4x4CornerToCorner_PacketByPacket(benchmark::State& state) {
    run_transfer(state, 64, {{"kind", "mesh"}, {"dims", {4, 4, 4}}}, 63, false);
}
BENCHMARK(BM_Transfer8MB_DirectCable)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Transfer8MB_DirectCable_PacketByPacket)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Transfer8MB_Mesh4x4x4CornerToCorner)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Transfer8MB_Mesh4x4x4CornerToCorner_PacketByPacket)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
