// Events per host second of the discrete-event kernel: a ring of self-rescheduling
// events (the pattern of clocked devices), with a working set of pending events.
#include <benchmark/benchmark.h>

#include "niclab/sim/kernel.hpp"

using namespace niclab;

static void BM_EventRing(benchmark::State& state) {
    const int pending = int(state.range(0));
    sim::Kernel k;
    uint64_t fired = 0;
    struct Tick {
        sim::Kernel* k;
        uint64_t* fired;
        int64_t period;
        void operator()() const {
            ++*fired;
            k->schedule_in(Time::ps(period), Tick{k, fired, period});
        }
    };
    for (int i = 0; i < pending; ++i) k.schedule_at(Time::ps(i), Tick{&k, &fired, 997 + i % 13});
    Time t{};
    for (auto _ : state) {
        t += Time::us(10);
        k.run_until(t);
    }
    state.counters["events_per_s"] = benchmark::Counter(double(fired), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EventRing)->Arg(16)->Arg(1024)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
