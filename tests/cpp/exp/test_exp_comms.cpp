// Parkbench Comms1 / Comms2 (seed 003 §8) on the two-node SeaStar running the C Portals
// firmware, with the timing model t_n = t0 + n / r_inf fitted.
#include <gtest/gtest.h>

#include <cstdio>

#include "exp_test_support.hpp"
#include "niclab/exp/experiments.hpp"

using namespace niclab;
using namespace niclab::exp;
using namespace niclab::exp::testing;

namespace {

const nlohmann::json kSizes = {{"sizes", {8, 1024, 4096, 65536, 262144, 1048576}}};

void print(const Result& r) {
    for (size_t i = 0; i < r.rows(); ++i)
        std::printf("%s %8.0f B  t_n %9.3f us  r_n %8.1f MB/s\n", r.experiment().c_str(), r.column("size")[i],
                    r.column("latency_us")[i], r.column("bandwidth_mb_s")[i]);
    std::printf("%s\n", r.fit.dump().c_str());
}

TEST(Comms, Comms1IsTheBouncedMessage) {
    auto c1 = run_experiment("comms1", seastar_pair(), kSizes);
    auto pp = run_experiment("pingpong", seastar_pair(), kSizes);
    print(c1);
    EXPECT_EQ(c1.experiment(), "comms1");
    EXPECT_EQ(c1.column("latency_us"), pp.column("latency_us"));  // the same measurement
    ASSERT_FALSE(c1.fit.contains("error")) << c1.fit.dump();
    const double t0 = c1.fit["t0_us"], r_inf = c1.fit["r_inf_mb_s"], n_half = c1.fit["n_half_bytes"];
    EXPECT_GT(t0, 0);
    EXPECT_NEAR(n_half, t0 * r_inf, 1e-6 * n_half);
    // r_inf is the large-message bandwidth the sweep approaches.
    const double r_1m = c1.column("bandwidth_mb_s").back();
    EXPECT_GT(r_inf, r_1m);
    EXPECT_LT(r_inf, 1.1 * r_1m);
    // t0 is near the small-message latency.
    EXPECT_NEAR(t0, c1.column("latency_us")[0], 0.5 * c1.column("latency_us")[0]);
}

TEST(Comms, Comms2UsesBothDirections) {
    auto c1 = run_experiment("comms1", seastar_pair(), kSizes);
    auto c2 = run_experiment("comms2", seastar_pair(), kSizes);
    print(c2);
    EXPECT_EQ(c2.experiment(), "comms2");
    ASSERT_FALSE(c2.fit.contains("error")) << c2.fit.dump();
    const double r_inf = c2.fit["r_inf_mb_s"];
    const double r_1m = c2.column("bandwidth_mb_s").back();
    EXPECT_GT(r_inf, r_1m);
    EXPECT_LT(r_inf, 1.1 * r_1m);
    // An ideal bidirectional link doubles Comms1's throughput (seed 003 §8).
    EXPECT_GT(r_inf, 1.8 * double(c1.fit["r_inf_mb_s"]));
    // r_n = 2n / T_exchange and t_n = T_exchange / 2, so r_n = n / t_n as well.
    for (size_t i = 0; i < c2.rows(); ++i)
        EXPECT_NEAR(c2.column("bandwidth_mb_s")[i], c2.column("size")[i] / c2.column("latency_us")[i], 1e-9);
}

TEST(Comms, GetAndOptionErrors) {
    auto r = run_experiment("comms1", seastar_pair(), {{"op", "get"}, {"sizes", {8, 65536, 1048576}}});
    ASSERT_FALSE(r.fit.contains("error")) << r.fit.dump();
    EXPECT_GT(double(r.fit["r_inf_mb_s"]), 0);
    try {
        run_experiment("comms2", seastar_pair(), {{"pattern", "comms1"}});
        ADD_FAILURE();
    } catch (const ExperimentError& e) {
        EXPECT_NE(std::string(e.what()).find("pattern"), std::string::npos) << e.what();
    }
}

TEST(Comms, OneSizeHasNoFitButKeepsItsRow) {
    auto r = run_experiment("comms1", seastar_pair(), {{"sizes", {8}}});
    EXPECT_EQ(r.rows(), 1u);
    EXPECT_TRUE(r.fit.contains("error"));
}

}  // namespace
