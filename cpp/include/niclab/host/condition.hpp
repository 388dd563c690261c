#pragma once
// Something a host process can block on until other code signals it: a NIC device
// model (a DMA completion, a mailbox write), an interrupt handler, another process.
// Condition-variable semantics: a notify reaches only the processes waiting at that
// moment, so wait for a state with ProcessContext::wait_for(condition, predicate).
// Woken processes become ready at the notify's time and run when the CPU lets them.
#include <cstddef>

#include "niclab/sim/ring_queue.hpp"

namespace niclab::host {

class Process;
class ProcessContext;

class Condition {
public:
    Condition() = default;
    // Waiters still blocked here stay blocked for good (nobody can wake them any more).
    ~Condition();
    Condition(const Condition&) = delete;
    Condition& operator=(const Condition&) = delete;

    void notify_one();
    void notify_all();
    std::size_t waiters() const { return waiters_.size(); }

private:
    friend class Process;
    friend class ProcessContext;
    friend class HostCpu;
    void add(Process& p);
    void remove(Process& p);
    // FIFO: the longest waiter wakes first. A ring, not a std::deque: a notify that took
    // the deque out constructed a new one, an allocation, at every message's completion.
    sim::RingQueue<Process*> waiters_;
};

}  // namespace niclab::host
