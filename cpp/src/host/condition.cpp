#include "niclab/host/condition.hpp"

#include "niclab/host/host_cpu.hpp"
#include "niclab/host/process.hpp"

namespace niclab::host {

Condition::~Condition() {
    for (; !waiters_.empty(); waiters_.pop_front()) waiters_.front()->waiting_on_ = nullptr;
}

void Condition::add(Process& p) {
    waiters_.push_back(&p);
    p.waiting_on_ = this;
}

void Condition::remove(Process& p) {
    waiters_.erase(&p);  // a process waits at most once
    p.waiting_on_ = nullptr;
}

void Condition::notify_one() {
    if (waiters_.empty()) return;
    Process* p = waiters_.front();
    waiters_.pop_front();
    p->waiting_on_ = nullptr;
    p->cpu_.make_ready(*p);
}

void Condition::notify_all() {
    // Only those waiting now: one that waits here again before this loop ends (none can:
    // a woken process runs from a later event) joins behind them and is not woken.
    for (size_t n = waiters_.size(); n > 0 && !waiters_.empty(); --n) notify_one();
}

}  // namespace niclab::host
