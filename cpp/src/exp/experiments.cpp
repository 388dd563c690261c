#include "niclab/exp/experiments.hpp"

#include "niclab/exp/programs.hpp"
#include "niclab/sim/version.hpp"

namespace niclab::exp {

namespace {

using Program = Result (*)(const system::SystemSpec&, const nlohmann::json&, const Observe&);

struct Entry {
    ExperimentInfo info;
    Program program;
};

const std::vector<Entry>& registry() {
    static const std::vector<Entry> entries = {
        {{"pingpong", "ping-pong latency and bandwidth over a message-size sweep (NetPIPE / OSU schedule)"}, run_pingpong},
        {{"stream", "uni-directional streaming bandwidth: back-to-back messages (NetPIPE -s)"}, run_stream},
        {{"bidir", "bi-directional bandwidth: both sides send at once (NetPIPE -2)"}, run_bidir},
        {{"logp_signature", "LogP signature: T_total/m against m for delays d; o_s, o_r, g, L (Culler et al.)"}, run_logp_signature},
        {{"prtt", "LogGP by parametrized round trips PRTT(n,d,s), as Netgauge's loggp pattern"}, run_prtt},
        {{"comms1", "Parkbench Comms1: a bounced message; t_n = t0 + n/r_inf and n_1/2 fitted"}, run_comms1},
        {{"comms2", "Parkbench Comms2: simultaneous exchange; t_n = t0 + n/r_inf and n_1/2 fitted"}, run_comms2},
        {{"net_throughput", "the network alone: throughput per terminal under uniform random saturation traffic, per packet size (seed 003 §6.4)"}, run_net_throughput},
        {{"halo3d", "Ember's Halo3D: every node exchanges faces with its six neighbours in a 3-D process grid, per iteration"}, run_halo3d},
        {{"multicast", "GRIM's NI multicast against N unicast copies: injection time and round trip to every replying receiver, per group size and message size (seed 004 §8.1.7)"}, run_multicast},
        {{"cpu_load", "CPU load of Comms1/Comms2 on both hosts, by a computing process (or thread) beside a realtime one"}, run_cpu_load},
    };
    return entries;
}

[[noreturn]] void unknown(const std::string& name) {
    std::string known;
    for (const auto& e : registry()) known += (known.empty() ? "" : ", ") + e.info.name;
    throw ExperimentError("no experiment named '" + name + "' (there are: " + known + ")");
}

}  // namespace

const std::vector<ExperimentInfo>& experiments() {
    static const std::vector<ExperimentInfo> infos = [] {
        std::vector<ExperimentInfo> v;
        for (const auto& e : registry()) v.push_back(e.info);
        return v;
    }();
    return infos;
}

std::vector<OptionInfo> describe_options(const std::string& name) {
    bool known = false;
    for (const auto& e : registry()) known = known || e.info.name == name;
    if (!known) unknown(name);
    const DescribeOptions describing;
    try {
        run_experiment(name, system::SystemSpec{}, nlohmann::json::object(), {});
    } catch (const OptionsDescribed& d) {
        return d.options;
    } catch (const std::exception& e) {
        // With no system given, a program that went past its options fails on the spec.
        throw ExperimentError("experiment '" + name + "' did not describe its options: " + e.what());
    }
    // Every program checks its options before building a system; one that ran instead
    // broke that rule, and a form without its options would be wrong.
    throw ExperimentError("experiment '" + name + "' ran instead of describing its options");
}

Result run_experiment(const std::string& name, const system::SystemSpec& spec, const nlohmann::json& options,
                      const Observe& observer) {
    for (const auto& e : registry())
        if (e.info.name == name) {
            Result r = e.program(spec, options, observer);
            r.simulator = std::string(simulator_version());
            return r;
        }
    unknown(name);
}

}  // namespace niclab::exp
