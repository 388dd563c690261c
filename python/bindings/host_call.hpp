#pragma once
// A call from Python that a node's host makes: a fresh host process on the node performs
// it, with the costs the host pays there, and the system runs (GIL released) until that
// process has finished. A call that waits for something (a message, a filled window)
// and finds the whole system idle with its process still waiting has waited for
// something that will not come: the process is ended and perform() returns false.
//
// An error raised by the hardware while the system ran may leave the caller's process
// mid-operation: it is kept, not destroyed (it may hold a bus read in flight), and
// lives until the HostCalls goes. Used by JAM on the StarT-X and CSP on the DSNIC.
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "niclab/host/process.hpp"
#include "niclab/system/system.hpp"

namespace niclab::bindings {

// What one call's process did, shared with its body (which may outlive the call).
struct CallState {
    bool finished = false;
    std::exception_ptr error;
    Time started, ended;
};

class HostCalls {
public:
    HostCalls(system::System& sys, uint32_t node, std::string library) : sys_(sys), node_(node), library_(std::move(library)) {}
    ~HostCalls() {
        for (auto& p : kept_) p.reset();  // before the system
    }
    HostCalls(const HostCalls&) = delete;
    HostCalls& operator=(const HostCalls&) = delete;

    uint32_t node() const { return node_; }
    const CallState& last() const { return last_; }

    // Runs `op` in a new host process until it finishes; rethrows what it threw. False
    // when the system went idle with the process still waiting. A run that stopped with
    // the process still busy calls `busy(message)`, which must throw the library's error.
    bool perform(const std::string& what, std::function<void(host::ProcessContext&)> op,
                 const std::function<void(const std::string&)>& busy);

private:
    system::System& sys_;
    uint32_t node_;
    std::string library_;
    std::vector<std::unique_ptr<host::Process>> kept_;
    CallState last_;
};

}  // namespace niclab::bindings
