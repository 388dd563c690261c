#include "event_queue.hpp"

namespace niclab::portals {

EventQueue::EventQueue(ptl_size_t count) : ring_(count) {}

void EventQueue::post(ptl_event_t event) {
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
