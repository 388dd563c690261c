#include "niclab/host/host_cpu.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "niclab/sim/activity.hpp"

namespace niclab::host {

namespace {

HostConfig validated(HostConfig c) {
    c.validate();
    return c;
}

std::size_t queue_of(Priority p) { return static_cast<std::size_t>(p); }

template <typename Seq>
void erase_one(Seq& seq, Process* p) {
    auto it = std::find(seq.begin(), seq.end(), p);
    if (it != seq.end()) seq.erase(it);
}

[[noreturn]] void misuse(const char* what) {
    // Destructors cannot report by exception, and going on would touch freed memory.
    std::fprintf(stderr, "niclab host: %s\n", what);
    std::abort();
}

}  // namespace

HostCpu::HostCpu(sim::Kernel& kernel, HostConfig config)
    : kernel_(kernel), config_(validated(std::move(config))), stacks_(config_.fiber_stack_bytes),
      cores_(config_.cores), built_at_(kernel.now()) {
    for (unsigned i = 0; i < cores_.size(); ++i) cores_[i].index = i;
}

HostCpu::~HostCpu() {
    if (live_processes_ != 0) misuse("HostCpu destroyed while some of its Processes still exist");
    kernel_.cancel(dispatch_event_);
    kernel_.cancel(interrupt_event_);
    for (Core& c : cores_) kernel_.cancel(c.interrupt_event);
}

// ---- process lifecycle ----------------------------------------------------------

void HostCpu::admit(Process& p) {
    ++live_processes_;
    if (p.priority_ != Priority::kernel) p.address_space_ = ++address_spaces_;
    make_ready(p);
}

void HostCpu::forget(Process& p) {
    switch (p.state_) {
    case Process::State::ready:
        ready_[queue_of(p.priority_)].erase(&p);
        break;
    case Process::State::computing: {
        Core& c = cores_[p.core_];
        stop_burst(c, p);
        c.current = nullptr;
        request_dispatch();
        break;
    }
    case Process::State::preempted:
        erase_one(cores_[p.core_].suspended, &p);
        --suspended_;
        break;
    case Process::State::blocked:
        if (p.waiting_on_) p.waiting_on_->remove(p);
        kernel_.cancel(p.sleep_event_);
        break;
    case Process::State::running:
        misuse("a Process destroyed from inside its own body");
    case Process::State::done:
        break;
    }
    for (Core& c : cores_)
        if (c.last == &p) c.last = nullptr;  // a new process at this address is another one
    --live_processes_;
}

void HostCpu::make_ready(Process& p) {
    p.state_ = Process::State::ready;
    ready_[queue_of(p.priority_)].push_back(&p);
    request_dispatch();
}

void HostCpu::sleep(Process& p, Time until) {
    p.sleep_event_ = kernel_.schedule_at(until, [this, &p] {
        p.sleep_event_ = {};
        make_ready(p);
    }, node_);
}

void HostCpu::check_running(const Process& p) const {
    if (running_ != &p)
        throw std::logic_error("process '" + p.name() +
                               "': a blocking call made from outside its own body");
}

// ---- scheduling -------------------------------------------------------------------

void HostCpu::request_dispatch() {
    // Deferred to an event at the same time, so a notify from a device callback or from
    // another process never runs a fiber in the middle of the notifier's own work.
    if (dispatch_event_.valid()) return;
    dispatch_event_ = kernel_.schedule_at(now(), [this] {
        dispatch_event_ = {};
        dispatch();
    }, node_);
}

void HostCpu::dispatch() {
    // Most calls find nothing to do: said without visiting every core (a host of eight
    // cores spent a sixth of a PIO transfer's host time in the visits).
    if (dispatch_idle()) return;
    for (bool progress = true; progress;) {
        progress = false;
        for (Core& c : cores_) {
            if (c.in_interrupt || c.current) continue;
            if (Process* p = pick_for(c)) {
                run(c, *p);
                progress = true;
            }
        }
        if (!progress) progress = preempt_for_higher_class();
    }
}

Process* HostCpu::pick_for(Core& c) {
    // Class by class: the process interrupted or preempted last on this core resumes
    // before newcomers of its class (kernel threads finish first and do not preempt each
    // other; an interrupted user process gets its core back before user newcomers), but
    // a ready process of a higher class goes first.
    Process* suspended = c.suspended.empty() ? nullptr : c.suspended.back();
    for (std::size_t k = 0; k < kPriorities; ++k) {
        if (suspended && queue_of(suspended->priority_) == k) {
            c.suspended.pop_back();
            --suspended_;
            return suspended;
        }
        if (!ready_[k].empty()) {
            Process* p = ready_[k].front();
            ready_[k].pop_front();
            return p;
        }
    }
    return nullptr;
}

bool HostCpu::preempt_for_higher_class() {
    // The highest class waiting takes the core whose process is of the lowest class
    // below it (the first such core on a tie), so the choice is deterministic.
    for (std::size_t k = 0; k < kPriorities; ++k) {
        if (ready_[k].empty()) continue;
        Core* victim = nullptr;
        for (Core& c : cores_) {
            if (c.in_interrupt || !c.current || queue_of(c.current->priority_) <= k) continue;
            if (!victim || c.current->priority_ > victim->current->priority_) victim = &c;
        }
        if (!victim) continue;  // every core runs this class or is interrupted; a lower class may still preempt
        preempt(*victim);
        return true;
    }
    return false;
}

void HostCpu::run(Core& c, Process& p) {
    c.current = &p;
    p.core_ = c.index;
    const Time cost = switch_cost(c, p);
    if (p.state_ == Process::State::preempted) {
        p.burst_left_ += cost;  // resumes its own cost after the switch
        start_burst(c, p);
    } else if (cost > Time{}) {
        // The switch is system time of the incoming process; its body resumes after it
        // (end_burst resumes the fiber), and an interrupt meanwhile pushes it back.
        p.burst_mode_ = CpuMode::system;
        p.burst_left_ = cost;
        start_burst(c, p);
    } else {
        resume(c, p);
    }
}

Time HostCpu::switch_cost(Core& c, const Process& p) {
    if (c.last == &p) return Time{};
    Time cost = config_.context_switch;
    if (p.address_space_ != 0) {
        if (c.address_space != 0 && c.address_space != p.address_space_) cost += config_.address_space_switch;
        c.address_space = p.address_space_;
    }
    c.last = &p;
    return cost;
}

void HostCpu::resume(Core& c, Process& p) {
    if (!p.started_) {
        p.started_ = true;
        p.start_time_ = now();
        try {
            p.fiber_ = boost::context::fiber(std::allocator_arg, PooledStack(stacks_),
                                             [&p](boost::context::fiber&& scheduler) {
                                                 p.scheduler_ = std::move(scheduler);
                                                 p.run_body();
                                                 p.request_ = Process::Request::exit;
                                                 return std::move(p.scheduler_);
                                             });
        } catch (const HostResourceError& e) {
            throw HostResourceError("node " + std::to_string(node_) + ", host process '" + p.name() + "': " + e.what());
        }
    }
    p.state_ = Process::State::running;
    p.request_ = Process::Request::none;
    running_ = &p;
    p.fiber_ = std::move(p.fiber_).resume();
    running_ = nullptr;
    switch (p.request_) {
    case Process::Request::burst:
        start_burst(c, p);
        break;
    case Process::Request::block:
        c.current = nullptr;
        break;
    case Process::Request::exit:
        c.current = nullptr;
        finish(p);
        break;
    case Process::Request::none:
        misuse("a process fiber switched out without a request");
    }
    if (p.dispatch_after_) {
        p.dispatch_after_ = false;
        dispatch();  // end_burst's, after resuming the process: a fresh pass over the cores
    }
}

// A burst whose end would be the next thing to happen ends at once, in the process's
// fiber: what its end event (end_burst) would have done, without the event and the two
// fiber switches (most of a host-driven transfer's host time: a PIO message is a dozen
// bursts of a few nanoseconds). Nothing may come first: no other event (an interrupt, a
// device's, another process's), no NIC core awake, and nothing for the dispatch that
// follows the burst's start - which would then run only after it, at its end.
bool HostCpu::burst_at_once(Process& p) {
    if (!dispatch_idle()) return false;
    const Time start = now();
    if (!kernel_.fire_inline(start + p.burst_left_, node_)) return false;
    p.burst_start_ = start;
    charge_burst(cores_[p.core_], p);
    p.dispatch_after_ = true;
    return true;
}

// Whether dispatch() would find nothing to do: no process ready, none suspended on a free core.
bool HostCpu::dispatch_idle() const {
    for (const auto& q : ready_)
        if (!q.empty()) return false;
    if (suspended_ == 0) return true;
    for (const Core& c : cores_)
        if (!c.in_interrupt && !c.current && !c.suspended.empty()) return false;
    return true;
}

void HostCpu::start_burst(Core&, Process& p) {
    p.state_ = Process::State::computing;
    p.burst_start_ = now();
    p.burst_event_ = kernel_.schedule_in(p.burst_left_, [this, &p] { end_burst(p); }, node_);
}

void HostCpu::end_burst(Process& p) {
    p.burst_event_ = {};
    Core& c = cores_[p.core_];
    stop_burst(c, p);
    resume(c, p);
    dispatch();
}

void HostCpu::stop_burst(Core& c, Process& p) {
    kernel_.cancel(p.burst_event_);
    p.burst_event_ = {};
    charge_burst(c, p);
}

// The burst from p.burst_start_ to now, charged.
void HostCpu::charge_burst(Core& c, Process& p) {
    const Time used = now() - p.burst_start_;
    if (sim::ActivityLog* log = kernel_.activity())
        log->record(p.burst_mode_ == CpuMode::user ? sim::Activity::HostLibrary : sim::Activity::HostSyscall, node_,
                    p.burst_start_, now());
    (p.burst_mode_ == CpuMode::user ? p.user_ : p.system_) += used;
    c.charged.charge(p.burst_mode_, used);
    p.burst_left_ -= used;
}

void HostCpu::finish(Process& p) {
    p.state_ = Process::State::done;
    p.end_time_ = now();
    if (p.error_) ++failed_processes_;
    p.body_ = nullptr;  // release what the body captured
    p.finished_.notify_all();
}

void HostCpu::preempt(Core& c) {
    Process& p = *c.current;
    stop_burst(c, p);
    p.state_ = Process::State::preempted;
    c.suspended.push_back(&p);
    ++suspended_;
    c.current = nullptr;
}

}  // namespace niclab::host
