#include "niclab/sim/kernel.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace niclab::sim {

Kernel::Kernel() {
    heap_.reserve(1024);
    slots_.reserve(1024);
}

uint32_t Kernel::alloc_slot() {
    if (free_head_ != UINT32_MAX) {
        uint32_t s = free_head_;
        free_head_ = slots_[s].next_free;
        return s;
    }
    slots_.emplace_back();
    return uint32_t(slots_.size() - 1);
}

void Kernel::free_slot(uint32_t s) {
    slots_[s].cb.reset();
    ++slots_[s].generation;
    slots_[s].next_free = free_head_;
    free_head_ = s;
}

EventId Kernel::schedule_at(Time at, Callback cb) {
    if (at < floor_)
        throw std::logic_error("event scheduled in the past: at " + std::to_string(at.ps()) +
                               " ps, kernel at " + std::to_string(floor_.ps()) + " ps");
    uint32_t s = alloc_slot();
    slots_[s].cb = std::move(cb);
    heap_.push_back(Entry{at, seq_++, s, slots_[s].generation});
    std::push_heap(heap_.begin(), heap_.end(), later);
    if (at < horizon_) horizon_ = at;
    return EventId{s, slots_[s].generation};
}

void Kernel::cancel(EventId id) {
    if (!id.valid() || id.slot >= slots_.size()) return;
    Slot& slot = slots_[id.slot];
    if (slot.generation != id.generation) return;
    // The heap entry stays and is skipped when popped (its generation no longer matches).
    free_slot(id.slot);
}

void Kernel::add_runnable(Runnable* r) { runnables_.push_back(r); }

void Kernel::remove_runnable(Runnable* r) {
    runnables_.erase(std::remove(runnables_.begin(), runnables_.end(), r), runnables_.end());
}

void Kernel::drive_runnables(Time horizon) {
    for (Runnable* r : runnables_) {
        horizon_ = std::min(horizon, next_event_time());
        if (stop_) return;
        if (r->active() && r->local_time() < horizon_) r->run(*this);
    }
}

bool Kernel::fire_next(Time until) {
    while (!heap_.empty()) {
        Entry e = heap_.front();
        if (e.time > until) return false;
        std::pop_heap(heap_.begin(), heap_.end(), later);
        heap_.pop_back();
        Slot& slot = slots_[e.slot];
        if (slot.generation != e.generation) continue;  // cancelled
        now_ = floor_ = e.time;
        Callback cb = std::move(slot.cb);
        free_slot(e.slot);
        ++events_fired_;
        cb();
        return true;
    }
    return false;
}

Time Kernel::run_until(Time until) {
    stop_ = false;
    while (!stop_) {
        drive_runnables(until);
        if (stop_ || !fire_next(until)) break;
    }
    // A runnable may have ended a little past the horizon (a multi-cycle instruction);
    // global time never goes backwards for the caller.
    if (!stop_) now_ = floor_ = std::max(floor_, until);
    horizon_ = now_;
    return now_;
}

}  // namespace niclab::sim
