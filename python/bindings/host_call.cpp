#include "host_call.hpp"

#include <pybind11/pybind11.h>

#include "system_guard.hpp"

namespace py = pybind11;

namespace niclab::bindings {

bool HostCalls::perform(const std::string& what, std::function<void(host::ProcessContext&)> op,
                        const std::function<void(const std::string&)>& busy) {
    RunMark mark(guard_key(sys_), library_ + " " + what);  // the call runs the system
    for (auto it = kept_.begin(); it != kept_.end();)  // processes an earlier error left behind
        it = (*it)->done() ? kept_.erase(it) : it + 1;
    auto state = std::make_shared<CallState>();
    sim::Kernel& kernel = sys_.kernel();
    auto proc = std::make_unique<host::Process>(
        sys_.host_cpu(node_), library_ + "-" + what, [state, op = std::move(op), &kernel](host::ProcessContext& ctx) {
            state->started = ctx.now();
            try {
                op(ctx);
            } catch (const std::exception&) {  // forced_unwind is no std::exception: it passes
                state->error = std::current_exception();
            }
            state->ended = ctx.now();
            state->finished = true;
            kernel.request_stop();
        });
    try {
        py::gil_scoped_release release;
        sys_.run_until(Time::max());
    } catch (...) {
        if (!state->finished) kept_.push_back(std::move(proc));
        throw;
    }
    last_ = *state;
    if (state->finished) {
        if (state->error) std::rethrow_exception(state->error);
        return true;
    }
    if (proc->state() != host::Process::State::blocked) {
        kept_.push_back(std::move(proc));
        busy("node " + std::to_string(node_) + ": " + what + " did not finish: the run stopped with its process still busy");
    }
    proc.reset();  // waiting for what nothing in the system will bring
    return false;
}

}  // namespace niclab::bindings
