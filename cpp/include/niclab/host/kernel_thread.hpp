#pragma once
// An OS-kernel context that does deferred interrupt work (a bottom half, as the
// generic-mode Portals driver needs: seed 001 §3.3 "the Portals interrupt handler
// processes all of the new events in the generic EQ each time it is invoked").
// It sleeps until woken, then runs its work function at kernel priority, ahead of
// user processes, with the full ProcessContext (compute, copy, wait ...); its time is
// system time. Wakeups that arrive while it works coalesce into one more round, so
// the work function must handle everything pending, as a real bottom half does.
//
//     host::KernelThread portals(cpu, "portals", [&](host::ProcessContext& ctx) {
//         while (eq.pop()) ctx.compute(match_cost);
//     });
//     cpu.raise_interrupt([&](host::InterruptContext&) { portals.wake(); });
#include <cstdint>
#include <functional>
#include <string>

#include "niclab/host/condition.hpp"
#include "niclab/host/process.hpp"

namespace niclab::host {

class HostCpu;

class KernelThread {
public:
    using Work = std::function<void(ProcessContext&)>;
    KernelThread(HostCpu& cpu, std::string name, Work work);
    KernelThread(const KernelThread&) = delete;
    KernelThread& operator=(const KernelThread&) = delete;

    // From an interrupt handler, a device model or a process.
    void wake();
    uint64_t wakeups() const { return wakeups_; }
    uint64_t rounds() const { return rounds_; }
    // Its fiber: state, CPU time, and the error if the work function threw (which ends it).
    const Process& process() const { return process_; }

private:
    void loop(ProcessContext& ctx);

    Work work_;
    Condition woken_;
    uint64_t pending_ = 0;
    uint64_t wakeups_ = 0;
    uint64_t rounds_ = 0;
    Process process_;  // last: destroyed (and unwound) before what its loop uses
};

}  // namespace niclab::host
