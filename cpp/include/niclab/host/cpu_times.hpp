#pragma once
// CPU time accounting. A core's time splits into user (processes' own work),
// system (system calls and kernel threads), interrupt (entry, handler, exit) and
// idle. Interrupt time is charged to the CPU, never to the process it interrupted:
// that process just finishes later, which is how CPU load shows up (seed 003's
// CPU-load experiments measure exactly this loss). Snapshots subtract, so a
// measurement window is `cpu.times() - before`.
#include <cstdint>

#include "niclab/sim/time.hpp"

namespace niclab::host {

enum class CpuMode : uint8_t { user, system };

struct CpuTimes {
    Time elapsed;  // core-time available: wall time since the CPU was built, times its cores
    Time user;
    Time system;
    Time interrupt;
    uint64_t interrupts = 0;

    Time busy() const { return user + system + interrupt; }
    Time idle() const { return elapsed - busy(); }
    // Share of the available core-time a mode took, in [0, 1].
    double share(Time t) const { return elapsed.ps() > 0 ? double(t.ps()) / double(elapsed.ps()) : 0.0; }

    void charge(CpuMode mode, Time t) { (mode == CpuMode::user ? user : system) += t; }

    CpuTimes& operator+=(const CpuTimes& o) {
        elapsed += o.elapsed; user += o.user; system += o.system; interrupt += o.interrupt;
        interrupts += o.interrupts;
        return *this;
    }
    CpuTimes operator-(const CpuTimes& o) const {
        return CpuTimes{elapsed - o.elapsed, user - o.user, system - o.system,
                        interrupt - o.interrupt, interrupts - o.interrupts};
    }
};

}  // namespace niclab::host
