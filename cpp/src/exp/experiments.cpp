#include "niclab/exp/experiments.hpp"

#include "niclab/exp/programs.hpp"

namespace niclab::exp {

namespace {

using Program = Result (*)(const system::SystemSpec&, const nlohmann::json&, const PointObserver&);

struct Entry {
    ExperimentInfo info;
    Program program;
};

const std::vector<Entry>& registry() {
    static const std::vector<Entry> entries = {
        {{"pingpong", "ping-pong latency and bandwidth over a message-size sweep (NetPIPE / OSU schedule)"}, run_pingpong},
        {{"stream", "uni-directional streaming bandwidth: back-to-back messages (NetPIPE -s)"}, run_stream},
        {{"bidir", "bi-directional bandwidth: both sides send at once (NetPIPE -2)"}, run_bidir},
    };
    return entries;
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

Result run_experiment(const std::string& name, const system::SystemSpec& spec, const nlohmann::json& options,
                      const PointObserver& observer) {
    for (const auto& e : registry())
        if (e.info.name == name) return e.program(spec, options, observer);
    std::string known;
    for (const auto& e : registry()) known += (known.empty() ? "" : ", ") + e.info.name;
    throw ExperimentError("no experiment named '" + name + "' (there are: " + known + ")");
}

}  // namespace niclab::exp
