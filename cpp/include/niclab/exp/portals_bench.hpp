#pragma once
// The frame every Portals experiment runs in (the NetPIPE Portals module of seed 001
// §5.2 is the model): a System built from the spec, a Portals interface (pid 0) on a
// client and a server node, one host process on each, and the point loop.
//
// Host programs are blocking-style C++ in the simulated processes. When the client
// measures a point it calls publish(); the simulation pauses, the harness appends the
// row and calls the observer on the caller's own stack (never inside a fiber:
// observers may be Python that redraws a plot), and the run resumes. An observer that
// returns false stops the run cleanly: the client sees stopping() at its next point
// and returns, and the Result keeps every point done so far (Result::stopped).
//
//     PortalsBench bench(spec, result, observer, {.client = 0, .server = 1});
//     bench.run([&](Endpoint& me) { ... me.put(ctx) ...; bench.publish(row); },
//               [&](Endpoint& me) { ... });
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "niclab/exp/endpoint.hpp"
#include "niclab/exp/options.hpp"
#include "niclab/exp/result.hpp"
#include "niclab/host/condition.hpp"
#include "niclab/host/process.hpp"
#include "niclab/system/system.hpp"

namespace niclab::exp {

// Called after each new row; returning false stops the run (keeping the rows).
using PointObserver = std::function<bool(const Result&)>;

struct Pair {
    uint32_t client = 0;
    uint32_t server = 1;
    static Pair from(Options& o);  // "client", "server"
};

class PortalsBench {
public:
    // Builds the System (ConfigError for a bad spec) and fills the result's system,
    // firmware and seed metadata. Throws ExperimentError when the pair does not fit the
    // system or a node does not run the Portals firmware.
    PortalsBench(const system::SystemSpec& spec, Result& result, PointObserver observer, Pair pair);
    ~PortalsBench();

    system::System& sys() { return *sys_; }
    Result& result() { return result_; }
    const Pair& pair() const { return pair_; }

    using Body = std::function<void(host::ProcessContext&, Endpoint&)>;
    // Runs both programs until the client's returns. The server's may still be waiting
    // for a message then; it is ended. A failed program (PortalsError, a data mismatch)
    // or a faulted NIC is rethrown as ExperimentError naming the node.
    void run(Body client, Body server);

    // From the client program: a measured point (the row of result's columns). Returns
    // once the observer has seen it, so stopping() is current.
    void publish(host::ProcessContext& ctx, std::vector<double> row);
    // The observer asked to stop: finish the current point and return.
    bool stopping() const { return stopping_; }
    // From either program once its endpoint is open: wait until the other one's is too.
    void meet(host::ProcessContext& ctx, const Endpoint& me);

private:
    void deliver();
    [[noreturn]] void fail(const std::string& what);

    Result& result_;
    PointObserver observer_;
    Pair pair_;
    std::unique_ptr<system::System> sys_;
    std::unique_ptr<portals::Ni> ni_[2];
    std::vector<std::vector<double>> published_;
    host::Condition delivered_;
    bool stopping_ = false;
    bool open_[2] = {false, false};  // client, server
};

}  // namespace niclab::exp
