#pragma once
// The host CPU as a resource. Each core runs at most one process at a time; ready
// processes wait in FIFO order per class (kernel, realtime, user: a higher class
// preempts a lower one, see Priority), so runs are deterministic. A device interrupt
// takes core 0 away from whatever it was doing for entry + handler + exit; the
// interrupted process's remaining cost resumes afterwards, so its completion moves
// back by the interrupt's duration while the interrupt's time is charged to the CPU (seed 001 §3.3: interrupts cost ≥ 2 µs,
// which is why generic-mode Portals loads the host).
//
//     sim::Kernel k;
//     host::HostCpu cpu(k);                       // defaults: seed 001's Opteron
//     host::Process p(cpu, "app", [](host::ProcessContext& ctx) { ctx.compute(Time::us(10)); });
//     k.schedule_at(Time::us(3), [&] { cpu.raise_interrupt([](host::InterruptContext&) {}); });
//     k.run_until(Time::ms(1));                   // p.end_time() == 12 µs
//
// Everything here runs on the simulation thread; fibers are only ever resumed from
// the scheduler (kernel event callbacks), never from another fiber.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "niclab/host/cpu_times.hpp"
#include "niclab/host/fiber_stack_pool.hpp"
#include "niclab/host/host_config.hpp"
#include "niclab/host/interrupt.hpp"
#include "niclab/host/process.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/sim/ring_queue.hpp"

namespace niclab::host {

class HostCpu {
public:
    // Validates `config` (HostConfigError). Processes must be destroyed before the CPU.
    explicit HostCpu(sim::Kernel& kernel, HostConfig config = {});
    ~HostCpu();
    HostCpu(const HostCpu&) = delete;
    HostCpu& operator=(const HostCpu&) = delete;

    const HostConfig& config() const { return config_; }
    // The node this CPU belongs to, for the activity it records (sim/activity.hpp).
    void set_node(uint32_t node) { node_ = node; }
    uint32_t node() const { return node_; }
    sim::Kernel& kernel() { return kernel_; }
    Time now() const { return kernel_.now(); }
    unsigned cores() const { return static_cast<unsigned>(cores_.size()); }

    // A device asserts its interrupt line. Taken on core 0 at the current time, or
    // after the interrupt in progress (handlers do not nest).
    void raise_interrupt(InterruptHandler handler);
    bool in_interrupt(unsigned core = 0) const { return cores_.at(core).in_interrupt; }

    // Accounting, including costs in progress. A window is `times() - earlier`.
    CpuTimes times() const;
    CpuTimes core_times(unsigned core) const;

    // The process whose fiber is executing right now, if any.
    const Process* running() const { return running_; }
    std::size_t live_processes() const { return live_processes_; }
    uint64_t failed_processes() const { return failed_processes_; }
    const FiberStackPool& stack_pool() const { return stacks_; }

private:
    friend class Process;
    friend class ProcessContext;
    friend class Condition;

    struct PendingInterrupt {
        InterruptHandler handler;
        Time raised_at;
    };
    struct Core {
        unsigned index = 0;
        Process* current = nullptr;            // owner of the cost in progress
        const Process* last = nullptr;         // the process it ran last (context switches)
        uint64_t address_space = 0;            // of the last user process it ran
        std::vector<Process*> suspended;       // preempted here, resumed here, innermost last
        bool in_interrupt = false;
        PendingInterrupt interrupt;            // the one being served
        Time interrupt_start;
        sim::EventId interrupt_event;
        CpuTimes charged;                      // completed costs (elapsed filled in on query)
    };

    // Process lifecycle (called by Process, ProcessContext, Condition).
    void admit(Process& p);
    void forget(Process& p);
    void make_ready(Process& p);
    void sleep(Process& p, Time until);
    void check_running(const Process& p) const;

    // Scheduling (scheduler context only).
    void request_dispatch();
    void dispatch();
    Process* pick_for(Core& c);
    bool preempt_for_higher_class();
    void run(Core& c, Process& p);
    Time switch_cost(Core& c, const Process& p);
    void resume(Core& c, Process& p);
    void start_burst(Core& c, Process& p);
    void end_burst(Process& p);
    void stop_burst(Core& c, Process& p);
    void charge_burst(Core& c, Process& p);
    bool burst_at_once(Process& p);
    bool dispatch_idle() const;
    void finish(Process& p);
    void preempt(Core& c);

    // Interrupts (core 0).
    void take_interrupt();
    void begin_interrupt(Core& c);
    void run_handler(Core& c);
    void run_step(Core& c, InterruptHandler step);
    void end_interrupt(Core& c);

    sim::Kernel& kernel_;
    HostConfig config_;
    FiberStackPool stacks_;
    std::vector<Core> cores_;
    sim::RingQueue<Process*> ready_[kPriorities];  // indexed by Priority: kernel, realtime, user
    sim::RingQueue<PendingInterrupt> pending_interrupts_;
    sim::EventId dispatch_event_;
    sim::EventId interrupt_event_;
    Process* running_ = nullptr;
    Time built_at_;
    std::size_t live_processes_ = 0;
    uint64_t address_spaces_ = 0;  // the last one given to a process
    uint64_t failed_processes_ = 0;
    std::size_t suspended_ = 0;  // processes in the cores' suspended lists
    uint32_t node_ = 0;
};

}  // namespace niclab::host
