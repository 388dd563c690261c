#include "model/run_channel.hpp"

namespace niclab::gui {

void RunChannel::publish(const exp::Result& r) {
    std::lock_guard lock(mutex_);
    current_.result = r;
    ++current_.version;
}

void RunChannel::finish(exp::Result r) {
    std::lock_guard lock(mutex_);
    current_.result = std::move(r);
    current_.state = State::finished;
    ++current_.version;
}

void RunChannel::fail(std::string error, std::optional<exp::Result> partial) {
    std::lock_guard lock(mutex_);
    if (partial) current_.result = std::move(*partial);
    current_.error = std::move(error);
    current_.state = State::failed;
    ++current_.version;
}

void RunChannel::cancelled_within_point() {
    std::lock_guard lock(mutex_);
    if (current_.result) current_.result->stopped = true;
    current_.state = State::cancelled;
    ++current_.version;
}

uint64_t RunChannel::version() const {
    std::lock_guard lock(mutex_);
    return current_.version;
}

RunChannel::Snapshot RunChannel::snapshot() const {
    std::lock_guard lock(mutex_);
    return current_;
}

}  // namespace niclab::gui
