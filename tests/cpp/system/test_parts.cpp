// A system is a preset of parts, and parts mix: a spec swaps a part (the StarT-X behind
// 64-bit/66 MHz PCI) and the swapped part's parameters, citations and description
// replace the preset's; a part that does not fit the system is refused by name.
#include <gtest/gtest.h>

#include "niclab/exp/experiments.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/system/system.hpp"
#include "system_test_support.hpp"

namespace niclab::system {
namespace {

using nlohmann::json;

TEST(Parts, EveryPartNamesItsKindAndCitesItsParameters) {
    const auto parts = Preset::parts_available();
    ASSERT_FALSE(parts.empty());
    for (const json& p : parts) {
        SCOPED_TRACE(p.dump());
        EXPECT_FALSE(p.at("name").get<std::string>().empty());
        EXPECT_FALSE(p.at("description").get<std::string>().empty());
        // A part sets its own kind's parameters (a network part's keys are net.*).
        const std::string kind = p.at("part");
        const std::string prefix = (kind == "network" ? "net" : kind) + ".";
        for (auto& [key, e] : p.at("parameters").items()) {
            EXPECT_EQ(key.rfind(prefix, 0), 0u) << key;
            EXPECT_FALSE(e.at("source").get<std::string>().empty()) << key;
        }
    }
}

TEST(Parts, TheStartxBehind64BitPci) {
    System sys(SystemSpec::from_json({{"system", "startx"}, {"nodes", 2}, {"parts", {{"bus", "pci-64-66"}}}}));
    EXPECT_NEAR(sys.preset().value("bus.clock_hz"), 66666666.7, 1e-3);
    EXPECT_EQ(sys.preset().value("bus.width_bytes"), 8);
    for (const auto& p : sys.preset().parameters()) {
        if (p.key == "bus.width_bytes") {
            EXPECT_EQ(p.source.rfind("part pci-64-66: ", 0), 0u) << p.source;
        }
    }
    EXPECT_NE(sys.preset().parts().at("bus").get<std::string>().find("64-bit 66 MHz"), std::string::npos);
    EXPECT_EQ(sys.spec().to_json().at("parts"), json({{"bus", "pci-64-66"}}));
}

TEST(Parts, SetOverridesComeAfterTheParts) {
    System sys(SystemSpec::from_json(
        {{"system", "startx"}, {"nodes", 2}, {"parts", {{"bus", "pci-64-66"}}}, {"set", {{"bus.width_bytes", 4}}}}));
    EXPECT_EQ(sys.preset().value("bus.width_bytes"), 4);
}

TEST(Parts, APartThatDoesNotFitIsRefusedByName) {
    std::string msg;
    EXPECT_EQ(error_key_path({{"nodes", 2}, {"parts", {{"bus", "pci-64-66"}}}}, &msg), "parts.bus");  // the SeaStar is on HT
    EXPECT_NE(msg.find("does not fit"), std::string::npos) << msg;
    EXPECT_EQ(error_key_path({{"system", "startx"}, {"nodes", 2}, {"parts", {{"bus", "pci-128"}}}}, &msg), "parts.bus");
    EXPECT_NE(msg.find("pci-64-66"), std::string::npos) << msg;  // lists the known ones
    EXPECT_EQ(error_key_path({{"system", "startx"}, {"nodes", 2}, {"parts", {{"cooler", "fan"}}}}, &msg), "parts.cooler");
    EXPECT_EQ(error_key_path({{"system", "startx"}, {"nodes", 2}, {"parts", {{"bus", 64}}}}), "parts.bus");
    EXPECT_EQ(error_key_path({{"system", "startx"}, {"nodes", 2}, {"parts", "pci"}}), "parts");
}

// The swap reaches the simulated hardware: a bus-bound RDMA transfer gets faster.
TEST(Parts, AWiderFasterBusMovesRdmaFaster) {
    auto bandwidth = [](const json& parts) {
        json spec = {{"system", "startx"}, {"nodes", 2}};
        if (!parts.is_null()) spec["parts"] = parts;
        auto r = exp::run_experiment("pingpong", SystemSpec::from_json(spec), {{"transport", "rdma"}, {"sizes", {262144}}});
        return r.row(0)[4];
    };
    const double narrow = bandwidth(nullptr), wide = bandwidth({{"bus", "pci-64-66"}});
    EXPECT_GT(wide, narrow * 1.05) << narrow << " vs " << wide;
}

}  // namespace
}  // namespace niclab::system
