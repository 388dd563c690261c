#pragma once
// The hand-off between an experiment running on the worker thread and the views: the
// worker publishes a copy of the growing Result after each point and reads the cancel
// flag; the views take snapshots from a timer. Nothing else is shared, so the views
// never touch a running simulation.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "niclab/exp/result.hpp"

namespace niclab::gui {

class RunChannel {
public:
    enum class State { running, finished, failed, cancelled };

    struct Snapshot {
        uint64_t version = 0;  // grows with every publish/finish/fail
        State state = State::running;
        std::optional<exp::Result> result;  // absent until the first point
        std::string error;                  // failed: what went wrong, as the core says it
    };

    // Worker side.
    void publish(const exp::Result& r);
    void finish(exp::Result r);
    // `partial`: the points measured before the failure (a firmware fault), if any.
    void fail(std::string error, std::optional<exp::Result> partial);
    // The run was abandoned within a point (sim::Cancelled): the points published
    // before it stay, marked stopped.
    void cancelled_within_point();

    // Either side. The point observer stops the run cleanly between points; within a
    // point the kernel polls the same flag (exp::Observe::cancel) and abandons it.
    void cancel() { cancelled_ = true; }
    bool cancelled() const { return cancelled_; }
    const std::atomic<bool>* cancel_flag() const { return &cancelled_; }

    uint64_t version() const;
    Snapshot snapshot() const;

private:
    mutable std::mutex mutex_;
    Snapshot current_;
    std::atomic<bool> cancelled_{false};
};

}  // namespace niclab::gui
