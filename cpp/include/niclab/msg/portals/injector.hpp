#pragma once
// Portals operations from outside the simulation (a notebook, a script, the GUI): a
// host process on the node that performs queued operations in order, in simulated
// time, with the costs of a real caller. Nothing happens until the simulation runs.
// An operation that fails with PortalsError is recorded (errors()) and the queue
// goes on; any other exception ends the process (Process::failed).
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "niclab/host/condition.hpp"
#include "niclab/host/process.hpp"
#include "niclab/msg/portals/ni.hpp"

namespace niclab::portals {

class Injector {
public:
    using Operation = std::function<void(host::ProcessContext&, Ni&)>;

    Injector(host::HostCpu& cpu, Ni& ni, const std::string& name = "injector");
    ~Injector();
    Injector(const Injector&) = delete;
    Injector& operator=(const Injector&) = delete;

    void submit(Operation op);
    size_t queued() const { return queue_.size(); }
    uint64_t completed() const { return completed_; }
    const std::vector<std::string>& errors() const { return errors_; }
    const host::Process& process() const { return *process_; }

private:
    void body(host::ProcessContext& ctx);

    Ni& ni_;
    std::deque<Operation> queue_;
    host::Condition work_;
    uint64_t completed_ = 0;
    std::vector<std::string> errors_;
    std::unique_ptr<host::Process> process_;  // last: its fiber uses the members above
};

}  // namespace niclab::portals
