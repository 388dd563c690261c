#pragma once
// The experiment registry: the one entry point the Python module, the command line
// and the GUI use, so no experiment logic is written twice.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "niclab/exp/bench.hpp"
#include "niclab/exp/result.hpp"
#include "niclab/system/system_spec.hpp"

namespace niclab::exp {

struct ExperimentInfo {
    std::string name;
    std::string summary;
};

const std::vector<ExperimentInfo>& experiments();

// The options `name` reads, with their defaults, in the order it reads them (a form for
// the GUI). Learned by asking the experiment itself (options.hpp, DescribeOptions), so
// the defaults live only where the experiment reads them. ExperimentError for an
// unknown experiment.
std::vector<OptionInfo> describe_options(const std::string& name);

// Throws ExperimentError for an unknown experiment (listing the known ones) or a bad
// option, ConfigError for a bad spec.
Result run_experiment(const std::string& name, const system::SystemSpec& spec, const nlohmann::json& options,
                      const Observe& observer = {});

}  // namespace niclab::exp
