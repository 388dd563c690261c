#pragma once
// Ctrl-C during a simulation that runs with the GIL released. Python's own handler only
// notes the signal; Python acts on it when this thread next runs Python code, which for
// an experiment is between points - a minute apart for a large transfer. For the length
// of one run a SigintWatch puts a C handler in front of Python's that also raises a flag
// the kernel polls (exp::Observe::cancel), so the run stops within the point. Python's
// handler still runs, so KeyboardInterrupt is pending exactly as before.
//
// It watches only on the main thread (the only one Python delivers signals to) and only
// while SIGINT is Python's default handler: an ignored signal or a handler of the user's
// own is left to behave as it did. Runs nested in an observer do not watch again.
#include <atomic>
#include <csignal>

namespace niclab::bindings {

class SigintWatch {
public:
    SigintWatch();  // with the GIL held
    ~SigintWatch();
    SigintWatch(const SigintWatch&) = delete;
    SigintWatch& operator=(const SigintWatch&) = delete;

    // The flag for exp::Observe::cancel; null when not watching.
    const std::atomic<bool>* flag() const;
    // Ctrl-C came during this run.
    bool raised() const;

private:
    bool watching_ = false;
};

}  // namespace niclab::bindings
