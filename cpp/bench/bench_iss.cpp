// Simulated instructions per host second for a compute-bound firmware (CRC-32 over
// a buffer in SRAM), with the caches on (I+D, the SeaStar configuration) and off
// (every fetch and load goes over the modelled bus). Reported as the "MIPS" counter.
// The PerInstruction variant turns block dispatch off (cpp/src/core/block.cpp): the
// same results to the cycle, one instruction per turn of the loop.
// The Doorbell pair is a firmware that polls for work (examples/doorbell.c), on SRAM
// and on a device register in turn, each rung by the host every 10 us: simulated
// microseconds per host second ("sim_us"), with the core's polling fast-forward
// (cpp/src/core/spin.cpp) on and off.
#include <benchmark/benchmark.h>

#include "niclab/fw/core_hw.h"
#include "niclab/system/system.hpp"

using namespace niclab;

// Loads an example firmware into `nic` and finds `symbol` in it; false (the benchmark
// skipped with the reason) when the image lacks it.
static bool load_example(benchmark::State& state, nic::EmbeddedNic& nic, const char* firmware, const char* symbol,
                         uint32_t& address) {
    nic.load_firmware(std::string(NICLAB_FIRMWARE_DIR) + "/examples/" + firmware);
    if (nic.image()->find_symbol(symbol, address)) return true;
    state.SkipWithError((std::string("firmware has no '") + symbol + "' symbol").c_str());
    return false;
}

static void run_crc(benchmark::State& state, const char* firmware, bool blocks = true, bool translate = true) {
    system::SystemSpec spec;
    spec.overrides["core.watchdog_us"] = 0;  // a pure compute loop shows no progress by design
    system::System sys(spec);
    nic::EmbeddedNic& nic = sys.nic(0);
    uint32_t iterations_addr = 0;
    if (!load_example(state, nic, firmware, "iterations", iterations_addr)) return;
    nic.cpu().set_block_dispatch(blocks);
    nic.cpu().set_block_translation(translate);
    uint64_t instructions = 0;
    for (auto _ : state) {
        // Make the firmware loop (practically) forever, then run a fixed slice of simulated time.
        nic.poke32(iterations_addr, 0x7FFFFFFF);
        uint64_t before = nic.cpu().instret();
        sys.run_for(Time::ms(2));
        instructions += nic.cpu().instret() - before;
    }
    state.counters["MIPS"] = benchmark::Counter(double(instructions) / 1e6, benchmark::Counter::kIsRate);
    state.counters["sim_instructions"] = double(instructions);
}

static void BM_Crc32_CachesOn(benchmark::State& s) { run_crc(s, "crc32.elf"); }
static void BM_Crc32_CachesOff(benchmark::State& s) { run_crc(s, "crc32_nocache.elf"); }
static void BM_Crc32_CachesOn_PerInstruction(benchmark::State& s) { run_crc(s, "crc32.elf", false); }
// Blocks as threaded code only, none translated to host code (core/translate.hpp).
static void BM_Crc32_CachesOn_Threaded(benchmark::State& s) { run_crc(s, "crc32.elf", true, false); }
BENCHMARK(BM_Crc32_CachesOn)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_Crc32_CachesOff)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_Crc32_CachesOn_PerInstruction)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_Crc32_CachesOn_Threaded)->Unit(benchmark::kMillisecond)->MinTime(1.0);

static void run_doorbell(benchmark::State& state, bool skip) {
    system::System sys(system::SystemSpec{});
    nic::EmbeddedNic& nic = sys.nic(0);
    uint32_t doorbell = 0;
    if (!load_example(state, nic, "doorbell.elf", "fw_doorbell", doorbell)) return;
    nic.cpu().set_spin_skip(skip);
    uint32_t rings = 0;
    double simulated_us = 0;
    for (auto _ : state) {
        for (int k = 0; k < 200; ++k) {  // 2 ms
            sys.run_for(Time::us(5));
            nic.poke32(doorbell, ++rings);
            sys.run_for(Time::us(5));
            nic.control().raise_external(NICLAB_IRQ_DOORBELL);
        }
        simulated_us += 2000;
    }
    if (nic.cpu().state() != core::Cpu::State::Running) state.SkipWithError("the doorbell firmware stopped");
    state.counters["sim_us"] = benchmark::Counter(simulated_us, benchmark::Counter::kIsRate);
    state.counters["passes_skipped"] = double(nic.cpu().spin_passes_skipped());
}

static void BM_Doorbell_FastForward(benchmark::State& s) { run_doorbell(s, true); }
static void BM_Doorbell_EveryPass(benchmark::State& s) { run_doorbell(s, false); }
BENCHMARK(BM_Doorbell_FastForward)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_Doorbell_EveryPass)->Unit(benchmark::kMillisecond)->MinTime(1.0);

BENCHMARK_MAIN();
