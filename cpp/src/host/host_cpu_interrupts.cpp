// HostCpu: device interrupts. They are served on core 0, one at a time, each taking
// the core for entry + handler work + exit (seed 001 §3.3: at least 2 µs).
#include "niclab/host/host_cpu.hpp"

#include "niclab/sim/activity.hpp"

namespace niclab::host {

void HostCpu::raise_interrupt(InterruptHandler handler) {
    pending_interrupts_.push_back(PendingInterrupt{std::move(handler), now()});
    // Taken by an event at the same time, like a line sampled at the next instruction
    // boundary: the raiser (a device callback, a process body) finishes what it is doing.
    if (interrupt_event_.valid()) return;
    interrupt_event_ = kernel_.schedule_at(now(), [this] {
        interrupt_event_ = {};
        take_interrupt();
    }, node_);
}

void HostCpu::take_interrupt() {
    Core& c = cores_[0];
    if (!c.in_interrupt && !pending_interrupts_.empty()) begin_interrupt(c);
}

void HostCpu::begin_interrupt(Core& c) {
    c.interrupt = std::move(pending_interrupts_.front());
    pending_interrupts_.pop_front();
    if (c.current) preempt(c);
    c.in_interrupt = true;
    c.interrupt_start = now();
    ++c.charged.interrupts;
    c.interrupt_event = kernel_.schedule_in(config_.interrupt_entry, [this, &c] { run_handler(c); }, node_);
    if (sim::ActivityLog* log = kernel_.activity())
        log->record(sim::Activity::HostInterruptEntry, node_, now(), now() + config_.interrupt_entry);
}

void HostCpu::run_handler(Core& c) { run_step(c, std::move(c.interrupt.handler)); }

// One step of the handler: it runs at `now`, and either ends the interrupt after its
// charged work and the exit cost, or continues with its next step after its work.
void HostCpu::run_step(Core& c, InterruptHandler step) {
    InterruptContext ctx(config_, now(), c.interrupt.raised_at, c.index);
    auto schedule_next = [&] {
        if (sim::ActivityLog* log = kernel_.activity()) {
            log->record(sim::Activity::HostInterruptHandler, node_, now(), now() + ctx.charged());
            if (!ctx.next())
                log->record(sim::Activity::HostInterruptExit, node_, now() + ctx.charged(),
                            now() + ctx.charged() + config_.interrupt_exit);
        }
        if (ctx.next()) {
            c.interrupt.handler = std::move(ctx.next());
            c.interrupt_event = kernel_.schedule_in(ctx.charged(), [this, &c] { run_step(c, std::move(c.interrupt.handler)); }, node_);
            return;
        }
        c.interrupt_event = kernel_.schedule_in(ctx.charged() + config_.interrupt_exit,
                                                [this, &c] { end_interrupt(c); }, node_);
    };
    try {
        if (step) step(ctx);
    } catch (...) {
        // The error reaches the caller of Kernel::run_until; the CPU still leaves the
        // interrupt, so the simulation can go on.
        ctx.next() = nullptr;
        schedule_next();
        throw;
    }
    schedule_next();
}

void HostCpu::end_interrupt(Core& c) {
    c.interrupt_event = {};
    c.charged.interrupt += now() - c.interrupt_start;
    c.in_interrupt = false;
    c.interrupt.handler = nullptr;
    if (!pending_interrupts_.empty()) begin_interrupt(c);  // held off while this one ran
    else dispatch();
}

}  // namespace niclab::host
