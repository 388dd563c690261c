#pragma once
// The frame every experiment runs in, on every system: a System built from the spec, a
// transport (msg::Transport, the system's host library) on a client and a server node,
// one host process on each, and the point loop. NetPIPE's Portals module (seed 001
// §5.2) was the model; the transport makes it system-independent.
//
// Host programs are blocking-style C++ in the simulated processes. When the client
// measures a point it calls publish(); the simulation pauses, the harness appends the
// row and calls the observer on the caller's own stack (never inside a fiber:
// observers may be Python that redraws a plot), and the run resumes. An observer that
// returns false stops the run cleanly: the client sees stopping() at its next point
// and returns, and the Result keeps every point done so far (Result::stopped).
//
//     Bench bench(spec, result, observer, Pair::from(options));
//     bench.run([&](host::ProcessContext& ctx, msg::Transport& me) { ... me.send(ctx) ...; bench.publish(ctx, row); },
//               [&](host::ProcessContext& ctx, msg::Transport& me) { ... });
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "niclab/core/fault.hpp"
#include "niclab/exp/options.hpp"
#include "niclab/exp/result.hpp"
#include "niclab/host/condition.hpp"
#include "niclab/host/process.hpp"
#include "niclab/msg/transport.hpp"
#include "niclab/sim/activity.hpp"
#include "niclab/system/system.hpp"

namespace niclab::exp {

// Called after each new row; returning false stops the run (keeping the rows).
using PointObserver = std::function<bool(const Result&)>;

// What a run reports besides its rows: each new point as it is measured, and the
// observations kept in the Result when the run ends (Result::observations): every
// firmware node's trace ring on the global time axis, every node's counters. Asking
// for them changes nothing the run measures.
struct Observe {
    PointObserver on_point;
    bool trace = false;     // needs a firmware built with tracing on every embedded-core node
    bool counters = false;
    // Where the microseconds went (breakdown.hpp): for each point, one timed interval
    // split into the parts that were busy — a transfer (the round-trip sweeps, prtt's
    // PRTT(1,0,s), logp_signature's round trip) or stream's whole burst.
    bool breakdown = false;
    // Set by another thread to abandon the run, even within a point: the kernel polls
    // it (sim::Kernel::set_cancel) and run_experiment throws sim::Cancelled. on_point
    // returning false is the clean stop between points.
    const std::atomic<bool>* cancel = nullptr;
};

// A firmware fault stopped a NIC during the run: the fault itself (PC, where, cause)
// and the Result as far as it got: the points measured before it, stopped = true,
// and the observations asked for (the trace shows what led up to the fault).
class ExperimentFault : public ExperimentError {
public:
    ExperimentFault(const std::string& message, uint32_t node, core::FirmwareFault fault, Result partial)
        : ExperimentError(message), node_(node), fault_(std::move(fault)), partial_(std::move(partial)) {}
    uint32_t node() const { return node_; }
    const core::FirmwareFault& fault() const { return fault_; }
    const Result& partial() const { return partial_; }

private:
    uint32_t node_;
    core::FirmwareFault fault_;
    Result partial_;
};

// Which nodes talk, over which of the system's transports, with which operation.
// Empty transport / op: the system's first transport and that transport's first op.
struct Pair {
    uint32_t client = 0;
    uint32_t server = 1;
    std::string transport;
    std::string op;
    static Pair from(Options& o);  // "client", "server", "transport", "op"
};

// A run on many nodes at once (a halo exchange): no pair is opened up front; the
// program opens a transport per neighbour with Bench::open and runs one process per
// node with Bench::run_nodes.
struct Everyone {
    std::string transport;
    std::string op;
};

class Bench {
public:
    // Builds the System (ConfigError for a bad spec), resolves the transport and op
    // (ExperimentError naming what the system offers) and opens a transport on each
    // node; fills the result's system, firmware and seed metadata and its "transport"
    // and "op" parameters.
    // Also ExperimentError when `observe` asks for a trace the firmware cannot give.
    Bench(const system::SystemSpec& spec, Result& result, Observe observe, Pair pair);
    Bench(const system::SystemSpec& spec, Result& result, Observe observe, Everyone everyone);
    ~Bench();

    system::System& sys() { return *sys_; }
    Result& result() { return result_; }
    const Pair& pair() const { return pair_; }  // transport and op resolved
    bool get() const { return pair_.op == "get"; }
    // The largest message the transport takes (bytes).
    uint64_t max_message() const { return info_.max_message; }
    // Throws ExperimentError "<experiment>: option '<key>' ..." when `bytes` exceeds it.
    void check_size(const std::string& key, uint64_t bytes) const;

    using Body = std::function<void(host::ProcessContext&, msg::Transport&)>;
    // Runs both programs until the client's returns. The server's may still be waiting
    // for a message then; it is ended. A failed program (a library error, a data
    // mismatch) or a faulted NIC is rethrown as ExperimentError naming the node.
    void run(Body client, Body server);

    // Everyone: a transport from `node` to `peer` besides the others `node` has open
    // (ExperimentError naming both nodes when the system's library cannot open it).
    msg::Transport& open(uint32_t node, uint32_t peer);
    // Everyone: one process on every node, all run until each has returned; failures
    // and faults as run().
    using NodeBody = std::function<void(host::ProcessContext&, uint32_t node)>;
    void run_nodes(NodeBody body);

    // From the client program: a measured point (the row of result's columns). Returns
    // once the observer has seen it, so stopping() is current.
    void publish(host::ProcessContext& ctx, std::vector<double> row);
    // The observer asked to stop: finish the current point and return.
    bool stopping() const { return stopping_; }
    // From either program once its transport is open: wait until the other one's is too.
    void meet(host::ProcessContext& ctx, const msg::Transport& me);

    // The latency breakdown (Observe::breakdown), for programs that offer it: the client
    // starts recording a transfer before the one it measures (work already under way is
    // then seen), names the measured interval — what it is and how many messages it
    // holds — and lets the bench settle it once everything that overlapped it has ended
    // (after its next transfer, or when the run ends). Without a breakdown asked for
    // these do nothing.
    void offer_breakdown() { breakdown_offered_ = true; }
    bool breakdown() const { return observe_.breakdown; }
    void watch_begin();
    void watch_end(uint64_t size, Time start, Time end, std::string interval, uint64_t messages = 1);
    void watch_settle();

private:
    Bench(const system::SystemSpec& spec, Result& result, Observe observe, Pair pair, bool open_pair);
    void deliver();
    void check_breakdown_offered();
    void after_run();
    void check_observable() const;
    void keep_observations();
    [[noreturn]] void fail(const std::string& what);
    [[noreturn]] void fail_faulted(size_t node);

    Result& result_;
    Observe observe_;
    Pair pair_;
    bool everyone_;  // opened with Everyone: no pair
    msg::TransportInfo info_;
    std::unique_ptr<system::System> sys_;
    std::vector<std::unique_ptr<msg::Transport>> transports_;  // a pair's: client, server
    std::vector<std::vector<double>> published_;
    host::Condition delivered_;
    bool stopping_ = false;
    bool open_[2] = {false, false};  // client, server
    bool breakdown_offered_ = false;
    sim::ActivityLog activity_;
    struct Watched {
        uint64_t size;
        Time start, end;
        std::string interval;
        uint64_t messages;
    };
    std::optional<Watched> watched_;
};

}  // namespace niclab::exp
