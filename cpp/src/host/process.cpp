#include "niclab/host/process.hpp"

#include <stdexcept>

#include "niclab/host/host_cpu.hpp"

namespace niclab::host {

namespace {

std::string describe(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& ex) {
        return ex.what();
    } catch (...) {
        return "unknown exception (not derived from std::exception)";
    }
}

}  // namespace

// ---- ProcessContext: the body's side -------------------------------------------

Time ProcessContext::now() const { return p_.cpu_.now(); }

const HostConfig& ProcessContext::config() const { return p_.cpu_.config(); }

void ProcessContext::compute(Time d) { p_.burst(CpuMode::user, d); }

bool ProcessContext::compute_at_once(Time d) {
    p_.cpu_.check_running(p_);
    return p_.burst_at_once(CpuMode::user, d);
}

void ProcessContext::syscall(Time kernel_work) {
    p_.burst(CpuMode::system, p_.cpu_.config().null_trap + kernel_work);
}

void ProcessContext::copy(uint64_t bytes) { p_.burst(CpuMode::user, p_.cpu_.config().copy_time(bytes)); }

void ProcessContext::sleep_until(Time t) {
    p_.cpu_.check_running(p_);
    if (t <= now()) return;
    p_.cpu_.sleep(p_, t);
    p_.block();
}

void ProcessContext::wait(Condition& c) {
    p_.cpu_.check_running(p_);
    c.add(p_);
    p_.block();
}

void ProcessContext::join(const Process& other) {
    wait_for(other.finished_, [&other] { return other.done(); });
}

void ProcessContext::set_priority(Priority p) {
    p_.cpu_.check_running(p_);
    if (p == Priority::kernel || p_.priority_ == Priority::kernel)
        throw std::invalid_argument("process '" + p_.name() + "': only user and realtime processes change their class");
    p_.priority_ = p;
}

// ---- Process ----------------------------------------------------------------------

Process::Process(HostCpu& cpu, std::string name, Body body, Priority priority)
    : cpu_(cpu), name_(std::move(name)), body_(std::move(body)), priority_(priority) {
    cpu_.admit(*this);
}

Process::~Process() {
    cpu_.forget(*this);
    // A suspended body is unwound (Boost.Context throws forced_unwind at its blocking
    // call), so its locals are destroyed and its stack goes back to the pool.
    if (fiber_) {
        boost::context::fiber doomed = std::move(fiber_);
    }
}

void Process::share_address_space_with(const Process& owner) {
    if (priority_ == Priority::kernel || owner.priority_ == Priority::kernel)
        throw std::invalid_argument("process '" + name_ + "': kernel threads have no address space of their own");
    address_space_ = owner.address_space_;
}

void Process::rethrow_if_failed() const {
    if (error_) std::rethrow_exception(error_);
}

Time Process::in_progress(CpuMode mode) const {
    if (state_ != State::computing || burst_mode_ != mode) return Time{};
    return cpu_.now() - burst_start_;
}

Time Process::user_time() const { return user_ + in_progress(CpuMode::user); }
Time Process::system_time() const { return system_ + in_progress(CpuMode::system); }

void Process::run_body() {
    try {
        body_(ctx_);
    } catch (const boost::context::detail::forced_unwind&) {
        throw;  // the Process is being destroyed: let Boost.Context finish the unwind
    } catch (...) {
        error_ = std::current_exception();
        error_message_ = describe(error_);
    }
}

void Process::burst(CpuMode mode, Time d) {
    cpu_.check_running(*this);
    if (d < Time{})
        throw std::invalid_argument("process '" + name_ + "': negative cost of " +
                                    std::to_string(d.ps()) + " ps");
    if (d == Time{}) return;
    if (burst_at_once(mode, d)) return;
    request_ = Request::burst;
    switch_to_scheduler();
}

bool Process::burst_at_once(CpuMode mode, Time d) {
    // Whatever a kernel thread does is kernel work.
    burst_mode_ = priority_ == Priority::kernel ? CpuMode::system : mode;
    burst_left_ = d;
    return d > Time{} && cpu_.burst_at_once(*this);
}

void Process::block() {
    state_ = State::blocked;
    request_ = Request::block;
    switch_to_scheduler();
}

void Process::switch_to_scheduler() { scheduler_ = std::move(scheduler_).resume(); }

}  // namespace niclab::host
