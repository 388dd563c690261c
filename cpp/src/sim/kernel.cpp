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
    ready_.erase(std::remove_if(ready_.begin(), ready_.end(), [r](const Ready& e) { return e.r == r; }), ready_.end());
    std::make_heap(ready_.begin(), ready_.end());
    parked_.erase(std::remove_if(parked_.begin(), parked_.end(), [r](const Parked& e) { return e.r == r; }),
                  parked_.end());
    std::make_heap(parked_.begin(), parked_.end());
    r->awake_ = r->parked_ = false;
}

// Into the ready heap, for this pass or the next: one behind the pass under way (a
// lower order than the runnable it is at) waits for the next pass, exactly as a scan
// of every runnable in registration order would reach it.
void Kernel::make_ready(Runnable* r) {
    const uint64_t pass = !in_pass_ || (driving_ && r->order_ <= cursor_) ? pass_ + 1 : pass_;
    ready_.push_back(Ready{pass, r->order_, r});
    std::push_heap(ready_.begin(), ready_.end());
}

void Kernel::wake(Runnable* r) {
    if (r->awake_ && (!r->parked_ || r->local_time() == r->parked_at_)) return;
    if (r->parked_) {
        // Its local time changed while parked (a reset): looked at again from now on.
        parked_.erase(std::find_if(parked_.begin(), parked_.end(), [r](const Parked& e) { return e.r == r; }));
        std::make_heap(parked_.begin(), parked_.end());
        r->parked_ = false;
    }
    r->awake_ = true;
    make_ready(r);
}

void Kernel::park(Runnable* r) {
    r->parked_ = true;
    r->parked_at_ = r->local_time();
    parked_.push_back(Parked{r->parked_at_, r->order_, r});
    std::push_heap(parked_.begin(), parked_.end());
}

// The parked runnables the horizon has passed become ready again.
void Kernel::unpark(Time horizon) {
    while (!parked_.empty() && parked_.front().at < horizon) {
        Runnable* r = parked_.front().r;
        std::pop_heap(parked_.begin(), parked_.end());
        parked_.pop_back();
        r->parked_ = false;
        make_ready(r);
    }
}

// One pass over the awake runnables in registration order, each run up to the horizon
// as it stands when its turn comes; the ones found asleep leave, the ones at or past
// the horizon are parked until it passes them. The horizon can move during a pass (a
// runnable schedules an earlier event, or cancels the next one), so the parked ones are
// looked at before every step, as the scan of every runnable would have.
void Kernel::drive_runnables(Time horizon) {
    ++pass_;
    if (renumber_) {  // a stopped pass's leftovers and the next pass's: all in this one
        for (Ready& e : ready_) e.pass = pass_;
        std::make_heap(ready_.begin(), ready_.end());
        renumber_ = false;
    }
    in_pass_ = true;
    for (;;) {
        horizon_ = std::min(horizon, next_event_time());
        if (stop_) {
            renumber_ = !ready_.empty();
            break;
        }
        unpark(horizon_);
        if (ready_.empty() || ready_.front().pass != pass_) break;
        Runnable* r = ready_.front().r;
        std::pop_heap(ready_.begin(), ready_.end());
        ready_.pop_back();
        driving_ = true;
        cursor_ = r->order_;
        if (r->active() && r->local_time() < horizon_) r->run(*this);
        if (!r->active()) {
            r->awake_ = false;
        } else if (r->local_time() >= horizon_) {
            park(r);
        } else {  // stopped short (a stop request): the next pass
            ready_.push_back(Ready{pass_ + 1, r->order_, r});
            std::push_heap(ready_.begin(), ready_.end());
        }
    }
    in_pass_ = driving_ = false;
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
    const auto behind = [t](const auto& e) { return e.r->active() && e.r->local_time() < t; };
    return std::any_of(ready_.begin(), ready_.end(), behind) || std::any_of(parked_.begin(), parked_.end(), behind);
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
