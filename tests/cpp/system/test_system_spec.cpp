// SystemSpec::from_json and System construction: every unusable spec is a
// ConfigError whose key_path names the offending key, as the user wrote it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "niclab/system/config_error.hpp"
#include "niclab/system/system.hpp"
#include "system_test_support.hpp"

namespace niclab::system {
namespace {

using nlohmann::json;

TEST(SystemSpec, DefaultsAreOneSeastarNode) {
    SystemSpec s = SystemSpec::from_json(json::object());
    EXPECT_EQ(s.preset, "seastar");
    EXPECT_EQ(s.nodes, 1u);
    EXPECT_TRUE(s.firmware.empty());
}

TEST(SystemSpec, RoundTripsThroughJson) {
    json j = {{"preset", "seastar"}, {"nodes", 3}, {"seed", 42}, {"set", {{"core.clock_mhz", 250}}},
              {"firmware", {"a.elf", "b.elf", "c.elf"}}};
    SystemSpec s = SystemSpec::from_json(j);
    EXPECT_EQ(SystemSpec::from_json(s.to_json()).to_json(), s.to_json());
    EXPECT_EQ(s.seed, 42u);
    EXPECT_EQ(s.firmware.size(), 3u);
}

// The older kernel (no lookahead) can move some figures, so a result's spec says when it ran.
TEST(SystemSpec, LookaheadIsOnUnlessTurnedOffAndRecordedWhenOff) {
    EXPECT_TRUE(SystemSpec{}.lookahead);
    EXPECT_FALSE(SystemSpec{}.to_json().contains("lookahead"));
    const SystemSpec off = SystemSpec::from_json({{"lookahead", false}});
    EXPECT_FALSE(off.lookahead);
    EXPECT_EQ(off.to_json().at("lookahead"), false);
    EXPECT_FALSE(SystemSpec::from_json(off.to_json()).lookahead);
    EXPECT_THROW(SystemSpec::from_json({{"lookahead", 1}}), ConfigError);
    // Two lookaheads behind a shared switch, likewise (the same times either way).
    EXPECT_TRUE(SystemSpec{}.lookahead_hops);
    EXPECT_FALSE(SystemSpec{}.to_json().contains("lookahead_hops"));
    const SystemSpec one = SystemSpec::from_json({{"lookahead_hops", false}});
    EXPECT_EQ(one.to_json().at("lookahead_hops"), false);
    EXPECT_FALSE(SystemSpec::from_json(one.to_json()).lookahead_hops);
    EXPECT_EQ(error_key_path({{"lookahead_hops", 2}}), "lookahead_hops");
}

TEST(SystemSpec, UnknownTopLevelKey) {
    std::string msg;
    EXPECT_EQ(error_key_path({{"nodez", 2}}, &msg), "nodez");
    EXPECT_NE(msg.find("unknown key"), std::string::npos) << msg;
}

TEST(SystemSpec, WrongTypeForNodes) {
    EXPECT_EQ(error_key_path({{"nodes", "two"}}), "nodes");
    EXPECT_EQ(error_key_path({{"nodes", 2.5}}), "nodes");
    EXPECT_EQ(error_key_path({{"nodes", 0}}), "nodes");
    EXPECT_EQ(error_key_path({{"nodes", -1}}), "nodes");
}

TEST(SystemSpec, OtherTopLevelTypes) {
    EXPECT_EQ(error_key_path(json::array()), "<spec>");
    EXPECT_EQ(error_key_path({{"preset", 5}}), "preset");
    EXPECT_EQ(error_key_path({{"seed", "x"}}), "seed");
    EXPECT_EQ(error_key_path({{"set", 3}}), "set");
    EXPECT_EQ(error_key_path({{"firmware", 3}}), "firmware");
    EXPECT_EQ(error_key_path({{"nodes", 2}, {"firmware", {"a.elf", 7}}}), "firmware[1]");
    EXPECT_EQ(error_key_path({{"nodes", 3}, {"firmware", {"a.elf", "b.elf"}}}), "firmware");
}

TEST(SystemSpec, UnknownParameterFlatAndNested) {
    std::string msg;
    EXPECT_EQ(error_key_path({{"set", {{"core.clok_mhz", 1}}}}, &msg), "set.core.clok_mhz");
    EXPECT_NE(msg.find("unknown parameter"), std::string::npos) << msg;
    EXPECT_EQ(error_key_path({{"set", {{"core", {{"clok_mhz", 1}}}}}}), "set.core.clok_mhz");
    EXPECT_EQ(error_key_path({{"set", {{"core", {{"icache", {{"sise_bytes", 1}}}}}}}}),
              "set.core.icache.sise_bytes");
}

TEST(SystemSpec, WrongTypeForAParameterValue) {
    std::string msg;
    EXPECT_EQ(error_key_path({{"set", {{"core.clock_mhz", "fast"}}}}, &msg), "set.core.clock_mhz");
    EXPECT_NE(msg.find("whole number"), std::string::npos) << msg;
    EXPECT_EQ(error_key_path({{"set", {{"core", {{"clock_mhz", true}}}}}}), "set.core.clock_mhz");
    EXPECT_EQ(error_key_path({{"set", {{"core.clock_mhz", 250.5}}}}), "set.core.clock_mhz");
    EXPECT_EQ(error_key_path({{"set", {{"core.clock_mhz", json::array({250})}}}}), "set.core.clock_mhz");
    EXPECT_EQ(error_key_path({{"set", {{"core.clock_mhz", nullptr}}}}), "set.core.clock_mhz");
}

TEST(SystemSpec, ZeroOrNegativeValues) {
    EXPECT_EQ(error_key_path({{"set", {{"core.clock_mhz", 0}}}}), "set.core.clock_mhz");
    EXPECT_EQ(error_key_path({{"set", {{"core", {{"dcache", {{"line_bytes", 0}}}}}}}}),
              "set.core.dcache.line_bytes");
    EXPECT_EQ(error_key_path({{"set", {{"mmio.read_latency_ns", -5}}}}), "set.mmio.read_latency_ns");
    // Zero is meaningful for some parameters: no watchdog, no extra latency.
    EXPECT_EQ(error_key_path({{"set", {{"core.watchdog_us", 0}, {"mmio.read_latency_ns", 0}}}}), "");
}

TEST(SystemSpec, UnknownPreset) {
    std::string msg;
    EXPECT_EQ(error_key_path({{"preset", "seastra"}}, &msg), "preset");
    EXPECT_NE(msg.find("seastar"), std::string::npos) << "should list the known presets: " << msg;
}

TEST(SystemSpec, WholeNumberFloatIsAnInteger) {
    // TOML and JSON writers may give 250.0 for 250.
    System sys(SystemSpec::from_json({{"set", {{"core.clock_mhz", 250.0}}}}));
    EXPECT_EQ(sys.nic(0).cpu().clock().mhz(), 250);
}

TEST(SystemSpec, TopologyErrorsNameTheKeyOfTheKind) {
    auto key = [](const json& topology, uint32_t nodes) {
        return error_key_path({{"system", "startx"}, {"nodes", nodes}, {"topology", topology}});
    };
    EXPECT_EQ(key({{"kind", "hypercube"}}, 4), "topology.kind");
    EXPECT_EQ(key({{"dims", {2, 2, 1}}}, 4), "topology.kind");
    EXPECT_EQ(key({{"kind", "mesh"}, {"dims", {2, 2}}}, 4), "topology.dims");
    EXPECT_EQ(key({{"kind", "fat_tree"}, {"leaves", 2}, {"nodes_per_leaf", 2}}, 4), "topology.spines");
    EXPECT_EQ(key({{"kind", "fat_tree"}, {"leaves", 2}, {"nodes_per_leaf", 2}, {"spines", 2}, {"arity", 2}}, 4),
              "topology.arity");
    EXPECT_EQ(key({{"kind", "kary_ntree"}, {"arity", 0}, {"levels", 2}}, 4), "topology.arity");
    EXPECT_EQ(key({{"kind", "kary_ntree"}, {"arity", 2}, {"levels", 3}}, 4), "topology") << "8 nodes for 4";
    EXPECT_EQ(key({{"kind", "crossbar"}, {"ports", 3}}, 4), "topology");
    EXPECT_EQ(key({{"kind", "kary_ntree"}, {"arity", 2}, {"levels", 2}}, 4), "");
    EXPECT_EQ(key({{"kind", "crossbar"}}, 4), "");
}

TEST(SystemSpec, ABinaryFatTreeOfStartxNodes) {
    // Arctic is a binary fat tree (seed 002 §2 L91): a 2-ary 3-tree of 8 nodes.
    System sys(SystemSpec::from_json(
        {{"system", "startx"}, {"nodes", 8}, {"topology", {{"kind", "kary_ntree"}, {"arity", 2}, {"levels", 3}}}}));
    EXPECT_EQ(sys.network()->topology().routers(), 12u);
    EXPECT_EQ(sys.network()->topology().hop_count(0, 7), 4u);
}

TEST(System, NodeIndexOutOfRange) {
    System sys(SystemSpec::from_json({{"nodes", 2}}));
    EXPECT_THROW(sys.nic(2), std::out_of_range);
    EXPECT_THROW(sys.host_memory(2), std::out_of_range);
}

}  // namespace
}  // namespace niclab::system
