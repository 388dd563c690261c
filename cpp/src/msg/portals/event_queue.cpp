#include "event_queue.hpp"

#include <algorithm>

namespace niclab::portals {

EventQueue::EventQueue(ptl_size_t count) : count_(count) {}

// Twice the room (at most count_), each unread event moved to its place in it: none is
// dropped before the queue holds count_.
void EventQueue::grow() {
    std::vector<ptl_event_t> wider(std::min<uint64_t>(count_, std::max<uint64_t>(8, 2 * ring_.size())));
    for (uint64_t k = read_; k < written_; ++k) wider[k % wider.size()] = std::move(ring_[k % ring_.size()]);
    ring_ = std::move(wider);
}

void EventQueue::post(ptl_event_t event) {
    if (written_ - read_ == ring_.size() && ring_.size() < count_) grow();
    event.sequence = ptl_seq_t(written_);
    ring_[written_ % ring_.size()] = std::move(event);
    ++written_;
    condition_.notify_all();
}

ptl_err_t EventQueue::get(ptl_event_t& event) {
    if (read_ == written_) return PTL_EQ_EMPTY;
    ptl_err_t rc = PTL_OK;
    if (written_ - read_ > ring_.size()) {
        // The writer lapped the reader: everything older than the ring is gone.
        read_ = written_ - ring_.size();
        rc = PTL_EQ_DROPPED;
    }
    event = ring_[read_ % ring_.size()];
    ++read_;
    return rc;
}

size_t EventQueue::pending() const {
    uint64_t unread = written_ - read_;
    return size_t(unread < ring_.size() ? unread : ring_.size());
}

}  // namespace niclab::portals
