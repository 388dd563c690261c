#pragma once
// What the experiment tests share: the two-node SeaStar running a built Portals image,
// and the check that a bad option's error names its key.
#include <gtest/gtest.h>

#include <string>

#include "niclab/exp/experiments.hpp"

namespace niclab::exp::testing {

inline system::SystemSpec seastar_pair(const std::string& image = "portals") {
    system::SystemSpec spec;
    spec.nodes = 2;
    spec.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/portals/" + image + ".elf"};
    return spec;
}

// Running `experiment` with `options` fails with an ExperimentError whose text has `key`.
inline void expect_option_error(const std::string& experiment, const nlohmann::json& options, const std::string& key) {
    try {
        run_experiment(experiment, seastar_pair(), options);
        ADD_FAILURE() << experiment << ": no error for " << options.dump();
    } catch (const ExperimentError& e) {
        EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
}

}  // namespace niclab::exp::testing
