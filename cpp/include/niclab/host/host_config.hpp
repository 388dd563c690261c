#pragma once
// Parameters of a host node's CPU model (a Red Storm node: one 2.0 GHz AMD Opteron
// running Catamount or Linux). Every default names its source; the SeaStar preset
// JSON carries the same values with the same citations.
#include <cstddef>
#include <cstdint>

#include "niclab/sim/error.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::host {

class HostConfigError : public Error {
public:
    using Error::Error;
};

struct HostConfig {
    // Seed 001 §3.3: "a NULL-trap into the Catamount kernel requires approximately
    // 75 ns of overhead". Charged by every ProcessContext::syscall().
    Time null_trap = Time::ns(75);

    // Seed 001 §3.3: "Interrupts, on the other hand, are very costly, requiring at
    // least 2 μs of overhead each." The seed gives one total, so all of it is charged
    // on entry (save state, vector, dispatch) before the handler runs; the exit share is
    // a separate knob for experiments that want to split it. The handler body's own
    // work comes on top (InterruptContext::charge).
    Time interrupt_entry = Time::us(2);
    Time interrupt_exit = Time::ps(0);

    // ASSUMPTION (not in the seeds): host memcpy bandwidth of a 2005 single-core
    // 2.0 GHz Opteron (seed 001 §5.1) with DDR-400, ~2 GB/s of bytes copied. STREAM
    // Copy reports roughly twice that for such machines because it counts bytes read
    // plus bytes written. In MB/s = 10^6 bytes per second, as the papers report.
    uint64_t copy_bandwidth_mb_s = 2000;

    // A core that starts running a process other than the one it ran last switches
    // context first (save and restore registers, scheduler work): charged as system time
    // to the incoming process. Interrupts do not count (entry and exit cover them), nor
    // does a core going idle and coming back to the same process. 0 where the seeds give
    // no such cost (the SeaStar's Catamount runs one process per node).
    Time context_switch{};
    // Extra when the incoming process runs in another address space than the core's last
    // user process (MMU remap, TLB flush, cache refill): separate processes pay it,
    // threads of one process do not (seed 003 §8.4 measures the difference). Kernel
    // threads borrow the current address space, as Linux's lazy TLB does.
    Time address_space_switch{};

    // Seed 001 §5.1: "Each node in Red Storm has a 2.0 GHz AMD Opteron" (single core).
    // More cores are supported; device interrupts are always taken on core 0.
    unsigned cores = 1;

    // Implementation, not hardware: the stack of each process fiber. Fixed size with a
    // guard page, so an overflow faults instead of corrupting a neighbour.
    std::size_t fiber_stack_bytes = 256 * 1024;

    // CPU time for copying `bytes` at copy_bandwidth_mb_s, rounded up to a picosecond.
    Time copy_time(uint64_t bytes) const;

    // Throws HostConfigError naming the offending field.
    void validate() const;
};

}  // namespace niclab::host
