#pragma once
// A device interrupt's handler (the top half). It runs in the OS kernel, after the
// interrupt entry cost, as plain C++ in zero simulated time; the work it does is
// modelled by charging it, which keeps the CPU in the interrupt for that long. Work
// that must block or should not hold interrupts off belongs in a KernelThread that
// the handler wakes (the bottom half).
#include <cstdint>
#include <functional>
#include <stdexcept>

#include "niclab/host/host_config.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::host {

class HostCpu;

class InterruptContext {
public:
    InterruptContext(const HostConfig& config, Time now, Time raised_at, unsigned core)
        : config_(config), now_(now), raised_at_(raised_at), core_(core) {}

    // When the handler runs: the interrupt was taken, then the entry cost was paid.
    Time now() const { return now_; }
    // When the device raised it (earlier than taken if another interrupt was in progress).
    Time raised_at() const { return raised_at_; }
    unsigned core() const { return core_; }
    const HostConfig& config() const { return config_; }

    // The handler body's own work, e.g. reading an event queue entry.
    void charge(Time work) {
        if (work < Time{}) throw std::invalid_argument("interrupt handler charged a negative time");
        charged_ += work;
    }
    void copy(uint64_t bytes) { charged_ += config_.copy_time(bytes); }
    Time charged() const { return charged_; }
    // The handler is not done: once the work charged so far is over, run `next` in the
    // same interrupt (no new entry cost), with a fresh context at that time. A handler
    // that, after handling its events, checks the device for new ones and loops (seed
    // 003 §8.3 L670) is a chain of such steps, each seeing the device as it is then.
    void continue_with(std::function<void(InterruptContext&)> next) { next_ = std::move(next); }
    std::function<void(InterruptContext&)>& next() { return next_; }

private:
    const HostConfig& config_;
    Time now_;
    Time raised_at_;
    unsigned core_;
    Time charged_;
    std::function<void(InterruptContext&)> next_;
};

using InterruptHandler = std::function<void(InterruptContext&)>;

}  // namespace niclab::host
