// HostCpu: time accounting snapshots, including the cost or interrupt in progress,
// so a measurement window can end at any instant.
#include "niclab/host/host_cpu.hpp"

namespace niclab::host {

CpuTimes HostCpu::core_times(unsigned core) const {
    const Core& c = cores_.at(core);
    CpuTimes t = c.charged;
    t.elapsed = now() - built_at_;
    if (c.in_interrupt) t.interrupt += now() - c.interrupt_start;
    if (c.current && c.current->state_ == Process::State::computing)
        t.charge(c.current->burst_mode_, now() - c.current->burst_start_);
    return t;
}

CpuTimes HostCpu::times() const {
    CpuTimes sum;
    for (unsigned i = 0; i < cores(); ++i) sum += core_times(i);
    return sum;
}

}  // namespace niclab::host
