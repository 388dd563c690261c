// The option descriptions the GUI's form is built from, and the published points it
// overlays: asked of the experiments themselves, never run.
#include <algorithm>

#include <gtest/gtest.h>

#include "niclab/exp/experiments.hpp"
#include "niclab/exp/published_points.hpp"

using namespace niclab;

namespace {
const exp::OptionInfo* find(const std::vector<exp::OptionInfo>& v, const std::string& key) {
    auto it = std::find_if(v.begin(), v.end(), [&](const auto& o) { return o.key == key; });
    return it == v.end() ? nullptr : &*it;
}
}  // namespace

TEST(ExpDescribe, EveryExperimentDescribesItsOptionsWithoutRunning) {
    for (const auto& e : exp::experiments()) {
        const auto options = exp::describe_options(e.name);
        EXPECT_FALSE(options.empty()) << e.name;
    }
}

TEST(ExpDescribe, PingpongOptionsCarryDefaultsKindsAndUnits) {
    const auto o = exp::describe_options("pingpong");
    const auto* schedule = find(o, "schedule");
    ASSERT_TRUE(schedule);
    EXPECT_EQ(schedule->kind, "text");
    EXPECT_EQ(schedule->fallback, "netpipe");
    EXPECT_EQ(schedule->allowed, (std::vector<std::string>{"netpipe", "osu"}));
    const auto* max = find(o, "max_size");
    ASSERT_TRUE(max);
    EXPECT_EQ(max->kind, "integer");
    EXPECT_EQ(max->unit, "B");
    const auto* repeats = find(o, "repeats");
    ASSERT_TRUE(repeats);
    EXPECT_TRUE(repeats->max.has_value());
    const auto* sizes = find(o, "sizes");
    ASSERT_TRUE(sizes);
    EXPECT_EQ(sizes->kind, "integer list");
}

TEST(ExpDescribe, UnitsFollowTheKeyConvention) {
    EXPECT_EQ(exp::option_unit("warmup_us"), "us");
    EXPECT_EQ(exp::option_unit("dispatch_ns"), "ns");
    EXPECT_EQ(exp::option_unit("repeat_bytes"), "B");
    EXPECT_EQ(exp::option_unit("repeats"), "");
    const auto o = exp::describe_options("logp_signature");
    ASSERT_TRUE(find(o, "delays_us"));
    EXPECT_EQ(find(o, "delays_us")->unit, "us");
    EXPECT_EQ(find(o, "delays_us")->kind, "number list");
}

TEST(ExpDescribe, UnknownExperimentIsAnError) {
    EXPECT_THROW(exp::describe_options("nope"), exp::ExperimentError);
}

TEST(ExpPublishedPoints, MatchExperimentColumnAndOptions) {
    exp::Result r("pingpong", {{"size", "B"}, {"latency_us", "us"}});
    r.system = {{"system", "seastar"}};
    r.params = {{"op", "put"}, {"transport", "portals"}};
    const auto put = exp::published_points(r, "latency_us");
    ASSERT_FALSE(put.empty());
    for (const auto& p : put) EXPECT_NE(p.label.find("seastar: seed 001"), std::string::npos) << p.label;
    r.params["op"] = "get";
    const auto get = exp::published_points(r, "latency_us");
    ASSERT_FALSE(get.empty());
    EXPECT_NE(get.front().value, put.front().value);
    EXPECT_TRUE(exp::published_points(r, "no_such_column").empty());
}

// The seeds' generic-mode numbers name their transport: an accelerated ping-pong is
// drawn against the accelerated prediction only, not against the generic 5.39 us.
TEST(ExpPublishedPoints, PointsBelongToTheirTransport) {
    exp::Result r("pingpong", {{"size", "B"}, {"latency_us", "us"}});
    r.system = {{"system", "seastar"}};
    r.params = {{"op", "put"}, {"transport", "portals_accel"}};
    const auto accel = exp::published_points(r, "latency_us");
    ASSERT_EQ(accel.size(), 1u);
    EXPECT_DOUBLE_EQ(accel[0].value, 2.0);
    EXPECT_NE(accel[0].label.find("seed 000 §5.2"), std::string::npos) << accel[0].label;
    r.params["transport"] = "portals";
    const auto generic = exp::published_points(r, "latency_us");
    ASSERT_EQ(generic.size(), 1u);
    EXPECT_DOUBLE_EQ(generic[0].value, 5.39);
}
