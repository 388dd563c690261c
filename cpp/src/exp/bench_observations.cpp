// Bench: what a run observes besides its rows (Observe) — each node's trace and
// counters when it ends, the latency breakdown of one timed interval per point — and a
// firmware fault that keeps them with the points measured before it.
#include <optional>

#include "niclab/exp/bench.hpp"
#include "niclab/exp/breakdown.hpp"
#include "niclab/nic/trace_ring.hpp"
#include "niclab/trace/trace_json.hpp"

namespace niclab::exp {

void Bench::fail_faulted(size_t node) {
    const std::string what = result_.experiment() + ": the NIC of node " + std::to_string(node) + " faulted: " + sys_->fault_report(node);
    std::optional<core::FirmwareFault> fault;
    if (sys_->hardware(node).embedded_nic()) fault = sys_->nic(node).fault();
    if (!fault) throw ExperimentError(what);  // a fixed-function NIU's own error: its report says it all
    result_.stopped = true;
    keep_observations();
    throw ExperimentFault(what, uint32_t(node), *fault, result_);
}

void Bench::check_observable() const {
    if (!observe_.trace) return;
    if (!sys_->has_embedded_nics())
        throw ExperimentError(result_.experiment() + ": trace: system '" + sys_->model().name() +
                              "' has no firmware to trace (its NICs are fixed-function); counters work on every system");
    for (size_t n = 0; n < sys_->node_count(); ++n) {
        try {
            nic::find_ring(sys_->nic(n));
        } catch (const trace::TraceError& e) {
            throw ExperimentError(result_.experiment() + ": trace: " + e.what() +
                                  " (a built-in image with tracing: firmware=\"portals_traced\"; your own: niclab fw build --trace)");
        }
    }
}

void Bench::watch_begin() {
    if (!observe_.breakdown) return;
    watch_settle();
    activity_.clear();
    sys_->kernel().set_activity(&activity_);
}

void Bench::watch_end(uint64_t size, Time start, Time end, std::string interval, uint64_t messages) {
    if (observe_.breakdown) watched_ = Watched{size, start, end, std::move(interval), messages};
}

void Bench::watch_settle() {
    if (!watched_) return;
    nlohmann::json b = break_down(activity_, watched_->start, watched_->end, pair_.client).to_json();
    b["size"] = watched_->size;
    b["interval"] = watched_->interval;
    b["messages"] = watched_->messages;
    result_.observations["breakdown"].push_back(std::move(b));
    watched_.reset();
    sys_->kernel().set_activity(nullptr);
    activity_.clear();
}

// Observations are read through the debug back door: no simulated time, nothing changes.
void Bench::keep_observations() {
    if (!observe_.trace && !observe_.counters && !observe_.breakdown) return;
    nlohmann::json& obs = result_.observations;
    if (observe_.counters) {
        obs["counters"] = nlohmann::json::array();
        for (size_t n = 0; n < sys_->node_count(); ++n)
            obs["counters"].push_back({{"node", n}, {"counters", sys_->counters(n).to_json()}});
    }
    if (observe_.trace) {
        obs["traces"] = nlohmann::json::array();
        for (size_t n = 0; n < sys_->node_count(); ++n) obs["traces"].push_back(trace::to_json(nic::read_trace(sys_->nic(n))));
    }
    if (observe_.breakdown && !obs.contains("breakdown")) obs["breakdown"] = nlohmann::json::array();
    obs["time_us"] = sys_->now().as_us();
}

}  // namespace niclab::exp
