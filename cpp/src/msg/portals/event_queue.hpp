#pragma once
// A Portals event queue (SAND2006-0420 §3.11): a circular buffer of `count` events.
// Posting never fails: when the queue is full the oldest unread event is overwritten,
// and the next get() reports PTL_EQ_DROPPED together with the oldest event that is
// still there (§3.11.7, PtlEQGet: "at least one event between this event and the
// last event obtained ... has been dropped due to limited space").
#include <cstdint>
#include <vector>

#include "niclab/host/condition.hpp"
#include "niclab/msg/portals/types.hpp"

namespace niclab::portals {

class EventQueue {
public:
    explicit EventQueue(ptl_size_t count);
    EventQueue(const EventQueue&) = delete;
    EventQueue& operator=(const EventQueue&) = delete;

    // Stamps the event's sequence number (per queue, from 0) and wakes waiters.
    void post(ptl_event_t event);
    // PTL_OK, PTL_EQ_DROPPED (event filled in) or PTL_EQ_EMPTY.
    ptl_err_t get(ptl_event_t& event);
    size_t pending() const;
    host::Condition& condition() { return condition_; }

private:
    std::vector<ptl_event_t> ring_;
    uint64_t written_ = 0;  // events ever posted
    uint64_t read_ = 0;     // events consumed or overwritten
    host::Condition condition_;
};

}  // namespace niclab::portals
