// Host bursts ended at once in their fibers (SystemSpec "fire_inline", on by default)
// against an event per burst ("fire_inline": false), on every system over each of its
// transports and ops: the same rows to the last digit, and the same counters of every
// node (host CPU times, bus, NIC, network), for a ping-pong from one word to several
// packets and for a host loaded while it communicates (cpu_load); and the same latency
// breakdowns, made from every span of activity the parts record.
#include "exp_test_support.hpp"

#include "niclab/system/config_error.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::exp {
namespace {

// The image a transport needs (the accelerated Portals process is its own build).
system::SystemSpec spec_for(const system::SystemModel& m, bool at_once, const std::string& transport = "") {
    system::SystemSpec spec = system::SystemSpec::from_json({{"system", m.name()}, {"nodes", 2}});
    if (m.name() == "seastar") spec = testing::seastar_pair(transport == "portals_accel" ? "portals_accel" : "portals");
    if (m.name() == "grim") spec.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/grim/grim.elf"};
    spec.fire_inline = at_once;
    return spec;
}

void expect_same(const std::string& experiment, const system::SystemModel& m, const nlohmann::json& options,
                 bool breakdown = false) {
    Observe observe;
    observe.counters = true;
    observe.breakdown = breakdown;  // from every span of activity the parts record
    const std::string transport = options.value("transport", "");
    const Result fast = run_experiment(experiment, spec_for(m, true, transport), options, observe);
    const Result slow = run_experiment(experiment, spec_for(m, false, transport), options, observe);
    ASSERT_GT(fast.rows(), 0u);
    EXPECT_EQ(fast.to_json().at("rows"), slow.to_json().at("rows"));
    EXPECT_EQ(fast.to_json().at("observations"), slow.to_json().at("observations"));
    if (breakdown) {
        EXPECT_FALSE(fast.to_json().at("observations").value("breakdown", nlohmann::json::array()).empty());
    }
}

TEST(FireInline, EveryTransportAndOpOfEverySystemMeasuresTheSame) {
    for (const system::SystemModel* m : system::system_models())
        for (const msg::TransportInfo& t : m->transports())
            for (const std::string& op : t.ops) {
                SCOPED_TRACE(m->name() + " " + t.name + " " + op);
                const uint64_t big = std::min<uint64_t>(t.max_message, 20000);
                expect_same("pingpong", *m, {{"sizes", {8, 1024, big}}, {"transport", t.name}, {"op", op}});
            }
}

TEST(FireInline, ALoadedHostMeasuresTheSameOnEverySystem) {
    for (const system::SystemModel* m : system::system_models()) {
        SCOPED_TRACE(m->name());
        expect_same("cpu_load", *m, {{"sizes", {64, 4096}}});
    }
}

TEST(FireInline, EverySystemsLatencyBreakdownIsTheSame) {
    for (const system::SystemModel* m : system::system_models()) {
        SCOPED_TRACE(m->name());
        expect_same("pingpong", *m, {{"sizes", {8, 4096}}}, true);
    }
}

TEST(FireInline, TheSpecKeyIsRecordedWhenOff) {
    EXPECT_FALSE(system::SystemSpec{}.to_json().contains("fire_inline"));
    const system::SystemSpec off = system::SystemSpec::from_json({{"fire_inline", false}});
    EXPECT_FALSE(off.fire_inline);
    EXPECT_EQ(off.to_json().at("fire_inline"), false);
    EXPECT_THROW(system::SystemSpec::from_json({{"fire_inline", "no"}}), system::ConfigError);
}

}  // namespace
}  // namespace niclab::exp
