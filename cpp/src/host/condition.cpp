#include "niclab/host/condition.hpp"

#include <algorithm>

#include "niclab/host/host_cpu.hpp"
#include "niclab/host/process.hpp"

namespace niclab::host {

Condition::~Condition() {
    for (Process* p : waiters_) p->waiting_on_ = nullptr;
}

void Condition::add(Process& p) {
    waiters_.push_back(&p);
    p.waiting_on_ = this;
}

void Condition::remove(Process& p) {
    waiters_.erase(std::remove(waiters_.begin(), waiters_.end(), &p), waiters_.end());
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
    // Taken out first: a woken process may wait here again before this loop ends.
    std::deque<Process*> woken;
    woken.swap(waiters_);
    for (Process* p : woken) {
        p->waiting_on_ = nullptr;
        p->cpu_.make_ready(*p);
    }
}

}  // namespace niclab::host
