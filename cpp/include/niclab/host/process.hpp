#pragma once
// A host process: native C++ in blocking style, running in a fiber (Boost.Context)
// on a simulated HostCpu. The body runs in zero simulated time between blocking
// calls; host time advances only through the modelled costs it asks for (compute,
// a system call, a copy at memory bandwidth) and through waiting. Each blocking call
// switches back to the scheduler; kernel events resume the fiber.
//
//     host::Process p(cpu, "compute", [](host::ProcessContext& ctx) {
//         ctx.compute(Time::us(10));
//         ctx.wait_for(nic_done, [&] { return eq.has_event(); });
//     });
//     kernel.run_until(Time::ms(1));
//     p.rethrow_if_failed();
//
// An exception escaping the body ends the process (failed(), error_message(),
// rethrow_if_failed()); it never unwinds across the fiber boundary. Two rules of
// Boost.Context apply to bodies: do not swallow every exception with `catch (...)`
// without rethrowing (destroying a blocked Process unwinds its stack with
// forced_unwind), and do not make a blocking call inside a catch block (the C++
// runtime's record of exceptions being handled is per thread, not per fiber).
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>

#include <boost/context/fiber.hpp>

#include "niclab/host/condition.hpp"
#include "niclab/host/cpu_times.hpp"
#include "niclab/host/host_config.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::host {

class HostCpu;
class Process;

// Scheduling classes, highest first. A process that becomes ready takes a core from a
// process of a lower class (which resumes on that core afterwards, before newcomers of
// its own class); processes of one class wait FIFO and do not preempt each other.
//  kernel:   kernel threads (their costs are system time).
//  realtime: a user process under a real-time policy, like SCHED_FIFO (seed 003 §8.4
//            runs its communication process so, to be scheduled in as soon as its
//            blocking communication has finished); its costs are user time.
//  user:     ordinary user processes.
// Interrupts take the core from any of them.
enum class Priority : uint8_t { kernel = 0, realtime = 1, user = 2 };
inline constexpr std::size_t kPriorities = 3;

// What a process body can do. Every call must come from the body's own fiber.
class ProcessContext {
public:
    Time now() const;
    // Use the CPU for `d` (user mode; system mode in a kernel thread). Interrupts
    // that arrive meanwhile push the end back by their duration.
    void compute(Time d);
    // compute(d) only if that burst's end would be the next thing to happen, so that it
    // ends at once (HostCpu::burst_at_once); false, having done nothing, otherwise. For a
    // model that does an event's work in place of the event right before it (bus::PciBus).
    bool compute_at_once(Time d);
    // A trap into the OS: the NULL-trap cost plus `kernel_work` done there (system mode).
    void syscall(Time kernel_work = Time{});
    // A memcpy of `bytes` at the host copy bandwidth. Costs time only: move the real
    // bytes (HostMemory) yourself.
    void copy(uint64_t bytes);
    // Off the CPU until `t` (returns at once if `t` is not in the future).
    void sleep_until(Time t);
    void sleep_for(Time d) { sleep_until(now() + d); }
    // Off the CPU until `c` is notified.
    void wait(Condition& c);
    // Off the CPU until `pred()` holds; checked now and after each notify of `c`.
    template <typename Predicate>
    void wait_for(Condition& c, Predicate pred) {
        while (!pred()) wait(c);
    }
    // Until `other` has finished (done or failed).
    void join(const Process& other);
    // The process changes its own class, like sched_setscheduler(0, ...): between user
    // and realtime only (std::invalid_argument otherwise). Takes effect from its next
    // wait for the CPU: it is running now, so nothing is preempted by the change.
    void set_priority(Priority p);

    const HostConfig& config() const;
    Process& process() { return p_; }

private:
    friend class Process;
    explicit ProcessContext(Process& p) : p_(p) {}
    Process& p_;
};

class Process {
public:
    using Body = std::function<void(ProcessContext&)>;
    enum class State : uint8_t {
        ready,      // waiting for a core
        running,    // its fiber is executing (zero simulated time)
        computing,  // on a core, consuming a modelled cost
        preempted,  // taken off its core mid-cost by an interrupt or a kernel thread
        blocked,    // waiting on a Condition or sleeping
        done,       // the body returned or threw
    };

    // Ready at once (at the kernel's current time). The Process must not outlive `cpu`.
    Process(HostCpu& cpu, std::string name, Body body, Priority priority = Priority::user);
    // Destroying an unfinished process takes it off the CPU and unwinds its stack.
    ~Process();
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    const std::string& name() const { return name_; }
    Priority priority() const { return priority_; }
    // Makes this process a thread of `owner`'s process: they share one address space,
    // so switching between them costs HostConfig::context_switch only, not
    // address_space_switch. Takes effect from its next switch in, so a harness may make
    // a running helper process a thread of a process created after it.
    void share_address_space_with(const Process& owner);
    uint64_t address_space() const { return address_space_; }
    State state() const { return state_; }
    bool done() const { return state_ == State::done; }
    bool failed() const { return static_cast<bool>(error_); }
    Time start_time() const { return start_time_; }  // first time on a core
    Time end_time() const { return end_time_; }      // valid once done()
    const std::string& error_message() const { return error_message_; }
    void rethrow_if_failed() const;

    // CPU time this process used, including a cost in progress. Excludes interrupts.
    Time user_time() const;
    Time system_time() const;
    Time cpu_time() const { return user_time() + system_time(); }

private:
    friend class HostCpu;
    friend class ProcessContext;
    friend class Condition;
    enum class Request : uint8_t { none, burst, block, exit };

    // Fiber side.
    void run_body();
    void burst(CpuMode mode, Time d);
    bool burst_at_once(CpuMode mode, Time d);
    void block();
    void switch_to_scheduler();
    Time in_progress(CpuMode mode) const;

    HostCpu& cpu_;
    std::string name_;
    Body body_;
    Priority priority_;
    ProcessContext ctx_{*this};
    State state_ = State::ready;
    Request request_ = Request::none;

    // The current modelled cost: its mode, what is left of it, when it (re)started.
    CpuMode burst_mode_ = CpuMode::user;
    Time burst_left_;
    Time burst_start_;
    sim::EventId burst_event_;
    unsigned core_ = 0;
    // A burst ended at once in its fiber (HostCpu::burst_at_once): the dispatch its end
    // event would have made follows the fiber's next switch out.
    bool dispatch_after_ = false;

    uint64_t address_space_ = 0;  // 0: a kernel thread (borrows the current one)

    Condition* waiting_on_ = nullptr;
    sim::EventId sleep_event_;
    mutable Condition finished_;  // joining a process does not change it

    Time user_;
    Time system_;
    bool started_ = false;
    Time start_time_;
    Time end_time_;
    std::exception_ptr error_;
    std::string error_message_;

    // Last members: destroyed first, so an unwinding body still sees the rest intact.
    boost::context::fiber scheduler_;  // used inside the fiber: the way back to the scheduler
    boost::context::fiber fiber_;      // used outside: the suspended body
};

}  // namespace niclab::host
