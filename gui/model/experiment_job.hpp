#pragma once
// One experiment run as the GUI asks for it: the same registry call the Python API and
// the CLI make (exp::run_experiment), with the point observer feeding a RunChannel.
#include <string>

#include <nlohmann/json.hpp>

#include "model/run_channel.hpp"
#include "niclab/system/system_spec.hpp"

namespace niclab::gui {

struct ExperimentJob {
    std::string experiment;
    system::SystemSpec spec;
    nlohmann::json options = nlohmann::json::object();
};

// Runs to the end, a cancel, or an error; never throws: every outcome lands in `channel`.
void run_job(const ExperimentJob& job, RunChannel& channel);

}  // namespace niclab::gui
