#include "niclab/exp/bench.hpp"

#include <algorithm>

namespace niclab::exp {

namespace {

std::string offered(const system::SystemModel& model) {
    std::string s;
    for (const auto& t : model.transports()) {
        std::string ops;
        for (const auto& op : t.ops) ops += (ops.empty() ? "" : "/") + op;
        s += (s.empty() ? "" : ", ") + t.name + " (" + ops + ")";
    }
    return s;
}

// The transport and op `pair` asks for, checked against what the system offers.
msg::TransportInfo resolve(const system::SystemModel& model, Pair& pair) {
    const auto transports = model.transports();
    auto it = pair.transport.empty()
                  ? transports.begin()
                  : std::find_if(transports.begin(), transports.end(), [&](const auto& t) { return t.name == pair.transport; });
    if (it == transports.end())
        throw ExperimentError("system '" + model.name() + "' has no transport '" + pair.transport +
                              "'; it offers: " + offered(model));
    pair.transport = it->name;
    if (pair.op.empty()) pair.op = it->ops.front();
    if (std::find(it->ops.begin(), it->ops.end(), pair.op) == it->ops.end())
        throw ExperimentError("transport '" + it->name + "' of system '" + model.name() + "' has no op '" + pair.op +
                              "'; the system offers: " + offered(model));
    return *it;
}

}  // namespace

Pair Pair::from(Options& o) {
    Pair p;
    p.client = uint32_t(o.unsigned_int("client", 0));
    p.server = uint32_t(o.unsigned_int("server", 1));
    p.transport = o.text("transport", "", {});
    p.op = o.text("op", "", {});
    return p;
}

Bench::Bench(const system::SystemSpec& spec, Result& result, Observe observe, Pair pair)
    : Bench(spec, result, std::move(observe), std::move(pair), true) {}

Bench::Bench(const system::SystemSpec& spec, Result& result, Observe observe, Everyone everyone)
    : Bench(spec, result, std::move(observe), Pair{0, 0, std::move(everyone.transport), std::move(everyone.op)}, false) {}

Bench::Bench(const system::SystemSpec& spec, Result& result, Observe observe, Pair pair, bool open_pair)
    : result_(result), observe_(std::move(observe)), pair_(std::move(pair)), everyone_(!open_pair) {
    if (open_pair && pair_.client == pair_.server)
        throw ExperimentError("the client and the server must be different nodes (both are node " + std::to_string(pair_.client) + ")");
    for (const auto& [key, node] : {std::pair{"client", pair_.client}, std::pair{"server", pair_.server}})
        if (open_pair && node >= spec.nodes)
            throw ExperimentError(std::string("option '") + key + "': node " + std::to_string(node) +
                                  " does not exist: the system has " + std::to_string(spec.nodes) + " node(s)");
    sys_ = std::make_unique<system::System>(spec);
    sys_->kernel().set_cancel(observe_.cancel);
    check_observable();
    info_ = resolve(sys_->model(), pair_);
    result_.params["transport"] = pair_.transport;
    result_.params["op"] = pair_.op;

    result_.seed = spec.seed;
    result_.system = sys_->spec().to_json();
    result_.system["parameters"] = sys_->preset().values_json();  // the preset with the overrides applied
    result_.system["hardware"] = sys_->preset().parts();  // part -> what it is (after any swapped parts)
    result_.firmware = nlohmann::json::array();
    for (size_t n = 0; sys_->has_embedded_nics() && n < sys_->node_count(); ++n) {
        const auto* image = sys_->nic(n).image();
        result_.firmware.push_back({{"node", n}, {"path", image ? image->path().string() : ""},
                                    {"build_id", image ? image->build_id() : ""}});
    }
    if (open_pair) {
        open(pair_.client, pair_.server);
        open(pair_.server, pair_.client);
    }
}

Bench::~Bench() {
    if (sys_) sys_->kernel().set_activity(nullptr);  // the log goes before the system
    while (!transports_.empty()) transports_.pop_back();  // before the system they live in, last opened first
}

msg::Transport& Bench::open(uint32_t node, uint32_t peer) {
    try {
        transports_.push_back(sys_->model().open_transport(*sys_, node, peer, pair_.transport, result_.seed));
    } catch (const Error& e) {
        throw ExperimentError("node " + std::to_string(node) + " cannot run a " + pair_.transport + " experiment" +
                              (everyone_ ? " with node " + std::to_string(peer) : "") + ": " + e.what());
    }
    return *transports_.back();
}

void Bench::check_size(const std::string& key, uint64_t bytes) const {
    if (bytes > info_.max_message)
        throw ExperimentError(result_.experiment() + ": option '" + key + "' asks for " + std::to_string(bytes) +
                              "-byte messages; transport '" + pair_.transport + "' takes at most " +
                              std::to_string(info_.max_message) + " B");
}

void Bench::publish(host::ProcessContext& ctx, std::vector<double> row) {
    published_.push_back(std::move(row));
    sys_->kernel().request_stop();  // pause so run() hands the point to the observer
    ctx.wait(delivered_);           // no simulated time passes
}

void Bench::meet(host::ProcessContext& ctx, const msg::Transport& me) {
    const bool client = me.node() == pair_.client;
    open_[client ? 0 : 1] = true;
    while (!open_[client ? 1 : 0]) ctx.sleep_for(Time::us(1));
}

void Bench::deliver() {
    for (auto& row : published_) {
        result_.add_row(std::move(row));
        if (observe_.on_point && !stopping_ && !observe_.on_point(result_)) stopping_ = true;
    }
    published_.clear();
    delivered_.notify_all();
}

void Bench::fail(const std::string& what) { throw ExperimentError(result_.experiment() + ": " + what); }

void Bench::run(Body client_body, Body server_body) {
    check_breakdown_offered();
    msg::Transport& client = *transports_.at(0);
    msg::Transport& server = *transports_.at(1);
    {
        host::Process server_process(sys_->host_cpu(pair_.server), "server", [&](host::ProcessContext& ctx) { server_body(ctx, server); });
        host::Process client_process(sys_->host_cpu(pair_.client), "client", [&](host::ProcessContext& ctx) { client_body(ctx, client); });
        while (!client_process.done()) {
            auto r = sys_->run_until(Time::max());
            deliver();
            for (size_t node : r.faulted_nodes) fail_faulted(node);
            if (server_process.failed()) fail("node " + std::to_string(pair_.server) + ": " + server_process.error_message());
            if (client_process.failed()) break;
            if (!r.stopped_by_request && !client_process.done())
                fail("the run stalled at " + std::to_string(sys_->now().as_us()) + " us: nothing left to do but the client (node " +
                     std::to_string(pair_.client) + ") has not finished");
        }
        if (client_process.failed()) fail("node " + std::to_string(pair_.client) + ": " + client_process.error_message());
        // The server may be waiting for a message that will not come: its process ends here.
    }
    after_run();
}

void Bench::check_breakdown_offered() {
    if (observe_.breakdown && !breakdown_offered_)
        fail("breakdown: there is no host-to-host transfer here to break down (it is measured for pingpong, stream, bidir, "
             "logp_signature, prtt, comms1, comms2 and cpu_load)");
}

void Bench::run_nodes(NodeBody body) {
    check_breakdown_offered();
    std::vector<std::unique_ptr<host::Process>> processes;
    for (uint32_t n = 0; n < sys_->node_count(); ++n)
        processes.push_back(std::make_unique<host::Process>(sys_->host_cpu(n), "node" + std::to_string(n),
                                                            [&body, n](host::ProcessContext& ctx) { body(ctx, n); }));
    auto all_done = [&] {
        return std::all_of(processes.begin(), processes.end(), [](const auto& p) { return p->done(); });
    };
    while (!all_done()) {
        auto r = sys_->run_until(Time::max());
        deliver();
        for (size_t node : r.faulted_nodes) fail_faulted(node);
        for (uint32_t n = 0; n < processes.size(); ++n)
            if (processes[n]->failed()) fail("node " + std::to_string(n) + ": " + processes[n]->error_message());
        if (!r.stopped_by_request && !all_done()) {
            if (stopping_) break;  // the observer stopped it: nodes still waiting for their neighbours end here
            std::string waiting;
            for (uint32_t n = 0; n < processes.size() && waiting.size() < 60; ++n)
                if (!processes[n]->done()) waiting += (waiting.empty() ? "" : ", ") + std::to_string(n);
            fail("the run stalled at " + std::to_string(sys_->now().as_us()) + " us: nothing left to do but node(s) " +
                 waiting + " have not finished");
        }
    }
    processes.clear();
    after_run();
}

void Bench::after_run() {
    watch_settle();
    sys_->kernel().set_activity(nullptr);
    result_.stopped = stopping_;
    keep_observations();
}

}  // namespace niclab::exp
