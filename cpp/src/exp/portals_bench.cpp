#include "niclab/exp/portals_bench.hpp"

namespace niclab::exp {

Pair Pair::from(Options& o) {
    Pair p;
    p.client = uint32_t(o.unsigned_int("client", 0));
    p.server = uint32_t(o.unsigned_int("server", 1));
    return p;
}

PortalsBench::PortalsBench(const system::SystemSpec& spec, Result& result, PointObserver observer, Pair pair)
    : result_(result), observer_(std::move(observer)), pair_(pair) {
    if (pair.client == pair.server)
        throw ExperimentError("the client and the server must be different nodes (both are node " + std::to_string(pair.client) + ")");
    if (std::max(pair.client, pair.server) >= spec.nodes)
        throw ExperimentError("node " + std::to_string(std::max(pair.client, pair.server)) + " does not exist: the system has " +
                              std::to_string(spec.nodes) + " node(s)");
    sys_ = std::make_unique<system::System>(spec);

    result_.seed = spec.seed;
    result_.system = spec.to_json();
    nlohmann::json params = nlohmann::json::object();
    for (const auto& p : sys_->preset().parameters()) params[p.key] = p.value;
    result_.system["parameters"] = params;  // the preset with the overrides applied
    result_.firmware = nlohmann::json::array();
    for (size_t n = 0; n < sys_->node_count(); ++n) {
        const auto* image = sys_->nic(n).image();
        result_.firmware.push_back({{"node", n}, {"path", image ? image->path().string() : ""},
                                    {"build_id", image ? image->build_id() : ""}});
    }
    const uint32_t nodes[2] = {pair.client, pair.server};
    for (int i = 0; i < 2; ++i) {
        try {
            ni_[i] = std::make_unique<portals::Ni>(sys_->portals(nodes[i]), 0);
        } catch (const Error& e) {
            throw ExperimentError("node " + std::to_string(nodes[i]) + " cannot run a Portals experiment: " + e.what());
        }
    }
}

PortalsBench::~PortalsBench() = default;

void PortalsBench::publish(host::ProcessContext& ctx, std::vector<double> row) {
    published_.push_back(std::move(row));
    sys_->kernel().request_stop();  // pause so run() hands the point to the observer
    ctx.wait(delivered_);           // no simulated time passes
}

void PortalsBench::meet(host::ProcessContext& ctx, const Endpoint& me) {
    const bool client = me.node() == pair_.client;
    open_[client ? 0 : 1] = true;
    while (!open_[client ? 1 : 0]) ctx.sleep_for(Time::us(1));
}

void PortalsBench::deliver() {
    for (auto& row : published_) {
        result_.add_row(std::move(row));
        if (observer_ && !stopping_ && !observer_(result_)) stopping_ = true;
    }
    published_.clear();
    delivered_.notify_all();
}

void PortalsBench::fail(const std::string& what) { throw ExperimentError(result_.experiment() + ": " + what); }

void PortalsBench::run(Body client_body, Body server_body) {
    const uint64_t seed = sys_->spec().seed;
    Endpoint client(*ni_[0], sys_->host_memory(pair_.client), pair_.server, seed);
    Endpoint server(*ni_[1], sys_->host_memory(pair_.server), pair_.client, seed);
    {
        host::Process server_process(sys_->host_cpu(pair_.server), "server", [&](host::ProcessContext& ctx) { server_body(ctx, server); });
        host::Process client_process(sys_->host_cpu(pair_.client), "client", [&](host::ProcessContext& ctx) { client_body(ctx, client); });
        while (!client_process.done()) {
            auto r = sys_->run_until(Time::max());
            deliver();
            for (size_t node : r.faulted_nodes)
                fail("the NIC of node " + std::to_string(node) + " faulted: " + sys_->nic(node).fault()->what());
            if (server_process.failed()) fail("node " + std::to_string(pair_.server) + ": " + server_process.error_message());
            if (client_process.failed()) break;
            if (!r.stopped_by_request && !client_process.done())
                fail("the run stalled at " + std::to_string(sys_->now().as_us()) + " us: nothing left to do but the client (node " +
                     std::to_string(pair_.client) + ") has not finished");
        }
        if (client_process.failed()) fail("node " + std::to_string(pair_.client) + ": " + client_process.error_message());
        // The server may be waiting for a message that will not come: its process ends here.
    }
    result_.stopped = stopping_;
}

}  // namespace niclab::exp
