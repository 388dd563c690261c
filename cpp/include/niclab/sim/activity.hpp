#pragma once
// Who was busy when: the spans of activity a latency breakdown is made of (issue 18,
// "where did the microseconds go"). Off by default; while a log is attached to the
// kernel, the parts on a message's path record what they did — a host CPU's library
// code, system calls and interrupt entry, handler and exit; the NIC core's execution,
// function by function from the executed PCs; the host bus's PIO and DMA transfers;
// packets in the network from injection to delivery. exp/breakdown.hpp turns the
// spans of one interval into parts that sum to it exactly.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "niclab/sim/time.hpp"

namespace niclab::sim {

// The kinds of activity, in the order a breakdown prefers them when several end at the
// same moment on the critical path (exp/breakdown.hpp): a transfer on the bus holds up
// what waits for its data, so DMA comes before the firmware that runs beside it.
enum class Activity : uint8_t {
    BusPio,           // a host CPU's programmed I/O to its NIC (uncached loads and stores)
    HostInterruptEntry,
    HostInterruptHandler,
    HostInterruptExit,
    HostSyscall,      // a process in system mode: system calls and the driver under them
    HostLibrary,      // a process in user mode: the messaging library and the benchmark
    HostPolling,      // a process polling its NIC and finding nothing: waiting, whatever the
                      // polls cost, so never on a critical path; what ran inside it neither
    BusDmaRead,       // the NIC reading host memory (DMA, bridge windows)
    BusDmaWrite,      // the NIC writing host memory
    Firmware,         // the NIC's embedded core executing; detail: the function
    NicEngine,        // a fixed-function NIC's own engine working (VCP, NIU, DMA sequencer)
    Network,          // a packet from injection to delivery: cables, switches, their queues
};
constexpr int kActivityKinds = int(Activity::Network) + 1;
const char* activity_name(Activity a);  // "host: library", "firmware", "bus: PIO", ...

struct ActivitySpan {
    Time start, end;
    uint32_t node = 0;
    Activity kind = Activity::HostLibrary;
    uint32_t detail = 0;  // ActivityLog::name(detail): a function name, "" for none
    uint32_t peer = 0;    // Network: the node the packet came from (`node` is where it went)
};

class ActivityLog {
public:
    ActivityLog() { names_.emplace_back(); }

    void record(Activity kind, uint32_t node, Time start, Time end, uint32_t detail = 0, uint32_t peer = 0) {
        if (end > start) spans_.push_back({start, end, node, kind, detail, peer});
    }
    // A small number for a detail text (a function name), the same one every time.
    uint32_t intern(const std::string& name);
    const std::string& name(uint32_t detail) const { return names_.at(detail); }

    const std::vector<ActivitySpan>& spans() const { return spans_; }
    void clear() { spans_.clear(); }

private:
    std::vector<ActivitySpan> spans_;
    std::vector<std::string> names_;
    std::unordered_map<std::string, uint32_t> ids_;
};

}  // namespace niclab::sim
