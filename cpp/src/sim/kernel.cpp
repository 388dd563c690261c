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
    // The heap entry stays and is skipped when it surfaces (its generation no longer matches).
    free_slot(id.slot);
    drop_cancelled_top();
}

void Kernel::drop_cancelled_top() {
    // Keep the invariant that the heap's top is a live event, so next_event_time() and
    // has_pending_events() never report a cancelled one.
    while (!heap_.empty() && slots_[heap_.front().slot].generation != heap_.front().generation) {
        std::pop_heap(heap_.begin(), heap_.end(), later);
        heap_.pop_back();
    }
}

void Kernel::add_runnable(Runnable* r) {
    r->order_ = next_order_++;
    runnables_.push_back(r);
    wake(r);
}

void Kernel::remove_runnable(Runnable* r) {
    runnables_.erase(std::remove(runnables_.begin(), runnables_.end(), r), runnables_.end());
    const auto it = std::find(awake_.begin(), awake_.end(), r);
    if (it == awake_.end()) return;
    if (driving_ && size_t(it - awake_.begin()) < drive_pos_) --drive_pos_;
    awake_.erase(it);
    r->awake_ = false;
}

void Kernel::wake(Runnable* r) {
    if (r->awake_) return;
    r->awake_ = true;
    const auto at = std::upper_bound(awake_.begin(), awake_.end(), r->order_,
                                     [](uint64_t order, const Runnable* x) { return order < x->order_; });
    // Woken behind the pass under way: the pass stays on the runnable it was at, and
    // reaches this one next time, exactly as a scan of every runnable would.
    if (driving_ && size_t(at - awake_.begin()) <= drive_pos_) ++drive_pos_;
    awake_.insert(at, r);
}

// One pass over the awake runnables in registration order, each run up to the horizon
// as it stands when its turn comes; the ones found asleep leave the list.
void Kernel::drive_runnables(Time horizon) {
    driving_ = true;
    for (drive_pos_ = 0; drive_pos_ < awake_.size();) {
        Runnable* r = awake_[drive_pos_];
        horizon_ = std::min(horizon, next_event_time());
        if (stop_) break;
        if (r->active() && r->local_time() < horizon_) r->run(*this);
        if (r->active()) {
            ++drive_pos_;
        } else {
            r->awake_ = false;
            awake_.erase(awake_.begin() + std::ptrdiff_t(drive_pos_));
        }
    }
    driving_ = false;
}

bool Kernel::fire_next(Time until) {
    if (heap_.empty() || heap_.front().time > until) return false;
    Entry e = heap_.front();
    std::pop_heap(heap_.begin(), heap_.end(), later);
    heap_.pop_back();
    Slot& slot = slots_[e.slot];
    now_ = floor_ = e.time;
    Callback cb = std::move(slot.cb);
    free_slot(e.slot);
    drop_cancelled_top();
    ++events_fired_;
    cb();
    return true;
}

bool Kernel::runnable_behind(Time t) const {
    return std::any_of(awake_.begin(), awake_.end(), [t](const Runnable* r) { return r->active() && r->local_time() < t; });
}

Time Kernel::latest_activity() const {
    Time t = floor_;
    for (const Runnable* r : runnables_) t = std::max(t, r->local_time());
    return t;
}

void Kernel::poll_cancel() {
    cancel_countdown_ = kCancelPoll;
    if (cancel_->load(std::memory_order_relaxed))
        throw Cancelled("cancelled at " + std::to_string(now_.as_us()) + " us of simulated time");
}

Time Kernel::run_until(Time until, bool stop_when_idle) {
    stop_ = false;
    while (!stop_) {
        if (cancel_ && --cancel_countdown_ == 0) poll_cancel();
        drive_runnables(until);
        if (stop_) break;
        if (fire_next(until)) continue;
        // No event is due before `until`; finished once every active runnable got there
        // (one may have stopped short at a horizon that a cancelled event had set).
        if (!runnable_behind(until)) break;
    }
    if (!stop_) {
        bool idle = heap_.empty() && !runnable_behind(Time::max());
        // A runnable may have ended a little past the horizon (a multi-cycle instruction);
        // global time never goes backwards for the caller.
        Time end = (stop_when_idle && idle) ? latest_activity() : std::max(floor_, until);
        now_ = floor_ = std::max(floor_, end);
    }
    horizon_ = now_;
    return now_;
}

}  // namespace niclab::sim
