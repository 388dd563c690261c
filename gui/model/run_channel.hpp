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
    enum class State { running, finished, failed };

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

    // Either side. Cancelling is cooperative: the run stops after the point under way
    // (the core's point observer is the only place a run can be stopped cleanly).
    void cancel() { cancelled_ = true; }
    bool cancelled() const { return cancelled_; }

    uint64_t version() const;
    Snapshot snapshot() const;

private:
    mutable std::mutex mutex_;
    Snapshot current_;
    std::atomic<bool> cancelled_{false};
};

}  // namespace niclab::gui
