#pragma once
#include <memory>
#include <vector>

#include "niclab/host/host_cpu.hpp"
#include "niclab/sim/kernel.hpp"

namespace niclab::host::test {

constexpr Time us(int64_t v) { return Time::us(v); }
constexpr Time ns(int64_t v) { return Time::ns(v); }

// A kernel and a CPU with the seed defaults; processes are owned here and die
// before the CPU (declared after it).
struct HostFixture {
    explicit HostFixture(HostConfig cfg = {}) : cpu(kernel, cfg) {}
    Process& spawn(std::string name, Process::Body body, Priority prio = Priority::user) {
        procs.push_back(std::make_unique<Process>(cpu, std::move(name), std::move(body), prio));
        return *procs.back();
    }
    void run(Time until = Time::ms(10)) { kernel.run_until(until, true); }

    sim::Kernel kernel;
    HostCpu cpu;
    std::vector<std::unique_ptr<Process>> procs;
};

}  // namespace niclab::host::test
