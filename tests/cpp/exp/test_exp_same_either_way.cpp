// Spec keys that change how the simulation gets to its results, never the results: each
// on (the default) against off, on every system over each of its transports and ops, the
// same rows to the last digit and the same counters of every node (host CPU times, bus,
// NIC, network), for a ping-pong from one word to several packets and for a host loaded
// while it communicates (cpu_load); and the same latency breakdowns, made from every span
// of activity the parts record.
//   "fire_inline": host bursts ended at once in their fibers, or an event per burst.
//   "run_ahead": NIC cores run on through their private instructions past the horizon,
//   or stop at it; also every other experiment on the SeaStar, whose Portals firmware is
//   where cores run ahead.
#include "exp_test_support.hpp"

#include "niclab/system/config_error.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::exp {
namespace {

// The image a transport needs (the accelerated Portals process is its own build).
system::SystemSpec spec_for(const system::SystemModel& m, const std::string& key, bool on, const std::string& transport = "") {
    system::SystemSpec spec = system::SystemSpec::from_json({{"system", m.name()}, {"nodes", 2}});
    if (m.name() == "seastar") spec = testing::seastar_pair(transport == "portals_accel" ? "portals_accel" : "portals");
    if (m.name() == "grim") spec.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/grim/grim.elf"};
    nlohmann::json j = spec.to_json();
    j[key] = on;
    return system::SystemSpec::from_json(j);
}

class SameEitherWay : public ::testing::TestWithParam<std::string> {
protected:
    void expect_same(const std::string& experiment, const system::SystemModel& m, const nlohmann::json& options,
                     bool breakdown = false) {
        Observe observe;
        observe.counters = true;
        observe.breakdown = breakdown;  // from every span of activity the parts record
        const std::string transport = options.value("transport", "");
        const Result on = run_experiment(experiment, spec_for(m, GetParam(), true, transport), options, observe);
        const Result off = run_experiment(experiment, spec_for(m, GetParam(), false, transport), options, observe);
        ASSERT_GT(on.rows(), 0u);
        EXPECT_EQ(on.to_json().at("rows"), off.to_json().at("rows"));
        const nlohmann::json changed = nlohmann::json::diff(off.to_json().at("observations"), on.to_json().at("observations"));
        EXPECT_TRUE(changed.empty()) << "observations that moved (a JSON patch from off to on): " << changed.dump();
        if (breakdown) {
            EXPECT_FALSE(on.to_json().at("observations").value("breakdown", nlohmann::json::array()).empty());
        }
    }
};

TEST_P(SameEitherWay, EveryTransportAndOpOfEverySystemMeasuresTheSame) {
    for (const system::SystemModel* m : system::system_models())
        for (const msg::TransportInfo& t : m->transports())
            for (const std::string& op : t.ops) {
                SCOPED_TRACE(m->name() + " " + t.name + " " + op);
                const uint64_t big = std::min<uint64_t>(t.max_message, 20000);
                expect_same("pingpong", *m, {{"sizes", {8, 1024, big}}, {"transport", t.name}, {"op", op}});
            }
}

TEST_P(SameEitherWay, ALoadedHostMeasuresTheSameOnEverySystem) {
    for (const system::SystemModel* m : system::system_models()) {
        SCOPED_TRACE(m->name());
        expect_same("cpu_load", *m, {{"sizes", {64, 4096}}});
    }
}

TEST_P(SameEitherWay, EverySystemsLatencyBreakdownIsTheSame) {
    for (const system::SystemModel* m : system::system_models()) {
        SCOPED_TRACE(m->name());
        expect_same("pingpong", *m, {{"sizes", {8, 4096}}}, true);
    }
}

TEST_P(SameEitherWay, EveryOtherExperimentOnTheSeaStarMeasuresTheSame) {
    const system::SystemModel& seastar = system::system_model("seastar");
    for (const auto& [experiment, options] : std::vector<std::pair<std::string, nlohmann::json>>{
             {"stream", {{"sizes", {8, 8192}}}},
             {"bidir", {{"sizes", {64, 32768}}}},
             {"logp_signature", {{"m", {1, 2, 4, 8, 16}}, {"delays_us", {0, 10}}}},
             {"logp_signature", {{"op", "get"}, {"m", {1, 4, 16}}, {"delays_us", {0, 10}}}},
             {"prtt", {{"sizes", {1, 1024}}}},
             {"comms1", {{"sizes", {8, 4096}}}},
             {"comms2", {{"sizes", {8, 4096}}}}}) {
        SCOPED_TRACE(experiment + " " + options.dump());
        expect_same(experiment, seastar, options);
    }
}

TEST_P(SameEitherWay, TheSpecKeyIsRecordedWhenOff) {
    EXPECT_FALSE(system::SystemSpec{}.to_json().contains(GetParam()));
    const system::SystemSpec off = system::SystemSpec::from_json({{GetParam(), false}});
    EXPECT_EQ(off.to_json().at(GetParam()), false);
    EXPECT_EQ(system::SystemSpec::from_json(off.to_json()).to_json(), off.to_json());
    EXPECT_THROW(system::SystemSpec::from_json({{GetParam(), "no"}}), system::ConfigError);
}

INSTANTIATE_TEST_SUITE_P(Keys, SameEitherWay, ::testing::Values("fire_inline", "run_ahead"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace niclab::exp
