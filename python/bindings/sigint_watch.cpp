#include "sigint_watch.hpp"

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace niclab::bindings {

namespace {

// A signal handler reaches no object: the one watch there can be at a time keeps its
// state here. A lock-free atomic is safe to set from the handler.
std::atomic<bool> sigint_raised{false};
struct sigaction previous {};
bool installed = false;

extern "C" void on_sigint(int sig, siginfo_t* info, void* context) {
    sigint_raised.store(true, std::memory_order_relaxed);
    if (previous.sa_flags & SA_SIGINFO)
        previous.sa_sigaction(sig, info, context);
    else if (previous.sa_handler != SIG_IGN && previous.sa_handler != SIG_DFL)
        previous.sa_handler(sig);  // Python's: notes it for PyErr_CheckSignals
}

bool python_raises_keyboard_interrupt() {
    py::module_ threading = py::module_::import("threading");
    if (!threading.attr("current_thread")().is(threading.attr("main_thread")())) return false;
    py::module_ signal = py::module_::import("signal");
    return signal.attr("getsignal")(int(SIGINT)).is(signal.attr("default_int_handler"));
}

}  // namespace

SigintWatch::SigintWatch() {
    if (installed || !python_raises_keyboard_interrupt()) return;
    struct sigaction mine {};
    mine.sa_sigaction = on_sigint;
    mine.sa_flags = SA_SIGINFO | SA_ONSTACK;  // SA_ONSTACK as Python's: fibers run on small stacks
    sigemptyset(&mine.sa_mask);
    sigint_raised.store(false);
    if (sigaction(SIGINT, &mine, &previous) != 0) return;  // no watch: Ctrl-C acts between points
    installed = watching_ = true;
}

SigintWatch::~SigintWatch() {
    if (!watching_) return;
    sigaction(SIGINT, &previous, nullptr);
    installed = false;
}

const std::atomic<bool>* SigintWatch::flag() const { return watching_ ? &sigint_raised : nullptr; }

bool SigintWatch::raised() const { return watching_ && sigint_raised.load(); }

}  // namespace niclab::bindings
