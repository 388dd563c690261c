#pragma once
// The host processes a test starts: spawn them on a CPU, and after the kernel has run,
// rethrow the first failure. Declare the member after the CPUs they run on, so the
// processes are destroyed first.
#include <memory>
#include <string>
#include <vector>

#include "niclab/host/host_cpu.hpp"
#include "niclab/host/process.hpp"

namespace niclab::test {

struct TestProcesses : std::vector<std::unique_ptr<host::Process>> {
    host::Process& spawn(host::HostCpu& cpu, std::string name, host::Process::Body body) {
        push_back(std::make_unique<host::Process>(cpu, std::move(name), std::move(body)));
        return *back();
    }
    void rethrow_failures() const {
        for (const auto& p : *this) p->rethrow_if_failed();
    }
};

}  // namespace niclab::test
