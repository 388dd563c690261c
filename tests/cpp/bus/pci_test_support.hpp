#pragma once
// A host (kernel, CPU, memory), a PCI bus and a recording target mapped at kBase.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "test_processes.hpp"
#include "niclab/bus/pci.hpp"

namespace niclab::bus::test {

inline constexpr uint64_t kBase = 0x1'0000'0000;
inline constexpr uint64_t kWindow = 0x10000;

// Remembers every write transaction; reads return the offset's low byte in every byte.
struct RecordingTarget : PciTarget {
    struct Write {
        uint64_t offset;
        std::vector<uint8_t> data;
        Time at;
    };
    void pci_write(uint64_t offset, std::span<const uint8_t> data, Time at) override {
        writes.push_back({offset, {data.begin(), data.end()}, at});
    }
    void pci_read(uint64_t offset, std::span<uint8_t> out, Time at) override {
        if (fail_reads) throw BusError("target refused the read");
        for (auto& b : out) b = uint8_t(offset);
        reads.push_back(at);
        if (on_read) on_read();
    }
    bool read_may_follow_stall(uint64_t, std::size_t) const override { return reads_may_follow_stall; }
    std::vector<Write> writes;
    std::vector<Time> reads;
    bool fail_reads = false;
    std::function<void()> on_read;  // what else a read does (pops a queue, wakes a process)
    bool reads_may_follow_stall = false;  // as a status register's or a receive queue's
};

struct PciFixture {
    explicit PciFixture(PciParams p = {}, host::HostConfig host = {}) : cpu(kernel, host), bus(kernel, cpu, memory, p) {
        bus.map(kBase, kWindow, target);
    }
    host::Process& spawn(std::string name, host::Process::Body body) {
        return procs.spawn(cpu, std::move(name), std::move(body));
    }
    void run(Time until = Time::ms(10)) {
        kernel.run_until(until, true);
        procs.rethrow_failures();
    }

    sim::Kernel kernel;
    host::HostCpu cpu;
    host::HostMemory memory;
    RecordingTarget target;
    PciBus bus;
    niclab::test::TestProcesses procs;
};

}  // namespace niclab::bus::test
