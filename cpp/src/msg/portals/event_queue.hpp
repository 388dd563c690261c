#pragma once
// A Portals event queue (SAND2006-0420 §3.11): a circular buffer of `count` events.
// Posting never fails: when the queue is full the oldest unread event is overwritten,
// and the next get() reports PTL_EQ_DROPPED together with the oldest event that is
// still there (§3.11.7, PtlEQGet: "at least one event between this event and the
// last event obtained ... has been dropped due to limited space").
//
// The ring's storage grows with the events unread, up to `count`: a transport's queue
// of 1,024 events (168 bytes each) was 172 KB on every node, which a halo on Red Storm's
// 10,368 nodes held for a handful of events each (1.8 GB of its 5 GB).
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
    void grow();
    std::vector<ptl_event_t> ring_;  // event k at k % ring_.size(), while unread
    ptl_size_t count_;               // the queue's size: events unread beyond it are dropped
    uint64_t written_ = 0;  // events ever posted
    uint64_t read_ = 0;     // events consumed or overwritten
    host::Condition condition_;
};

}  // namespace niclab::portals
