// LogGP by parametrized round trips (Netgauge's loggp pattern) on the two-node SeaStar
// running the C Portals firmware.
#include <gtest/gtest.h>

#include <cstdio>

#include "exp_test_support.hpp"
#include "niclab/exp/experiments.hpp"

using namespace niclab;
using namespace niclab::exp;
using namespace niclab::exp::testing;

namespace {

void print(const Result& r) {
    for (size_t i = 0; i < r.rows(); ++i) {
        const auto& w = r.row(i);
        std::printf("s %6.0f  PRTT(1,0) %8.3f  PRTT(n,0) %8.3f  PRTT(n,d) %8.3f  d %7.3f  o_r %6.3f\n", w[0], w[1], w[2],
                    w[3], w[4], w[5]);
    }
    std::printf("%s\n", r.fit.dump().c_str());
}

void check_rows(const Result& r) {
    for (size_t i = 0; i < r.rows(); ++i) {
        const auto& w = r.row(i);
        EXPECT_GE(w[2], w[1]) << "PRTT(n,0,s) >= PRTT(1,0,s) at " << w[0];
        EXPECT_GT(w[3], w[2]) << "PRTT(n,d,s) > PRTT(n,0,s) at " << w[0];
        EXPECT_NEAR(w[4], w[1], 1e-3) << "d = PRTT(1,0,s)";
        EXPECT_GT(w[5], 0) << "o_r at " << w[0];
    }
}

TEST(Prtt, PutLogGP) {
    auto r = run_experiment("prtt", seastar_pair(), {{"sizes", {1, 8, 1024, 16384, 65536}}, {"repeats", 2}});
    print(r);
    ASSERT_EQ(r.rows(), 5u);
    check_rows(r);
    ASSERT_FALSE(r.fit.contains("error")) << r.fit.dump();
    const double L = r.fit["L_us"], o_s = r.fit["o_s_us"], o_r = r.fit["o_r_us"], g = r.fit["g_us"];
    const double G = r.fit["G_us_per_byte"];
    EXPECT_GT(G, 0);
    EXPECT_GT(g, 0);
    EXPECT_GT(o_s, 0);
    EXPECT_GT(o_r, 0);
    EXPECT_GT(L, 0);
    // Netgauge's L is half the 1-byte round trip; LogP's takes the overheads out of it.
    EXPECT_NEAR(double(r.fit["L_netgauge_us"]), r.column("prtt_1_0_us")[0] / 2, 1e-9);
    EXPECT_NEAR(L + o_s + o_r, r.fit["L_netgauge_us"], 1e-9);
    // The large-message gap is the link's: 1/G is a bandwidth above ping-pong's at 64 KiB.
    EXPECT_GT(1.0 / G, 65536 / (r.column("prtt_1_0_us")[4] / 2));
}

TEST(Prtt, GetIsIssuedWithoutWaiting) {
    auto r = run_experiment("prtt", seastar_pair(), {{"op", "get"}, {"sizes", {1, 4096, 65536}}, {"n", 6}, {"repeats", 1}});
    print(r);
    ASSERT_EQ(r.rows(), 3u);
    check_rows(r);
    ASSERT_FALSE(r.fit.contains("error")) << r.fit.dump();
    EXPECT_GT(double(r.fit["G_us_per_byte"]), 0);
    // n gets in flight at once take less than n blocking gets would.
    for (size_t i = 0; i < r.rows(); ++i) EXPECT_LT(r.row(i)[2], 6 * r.row(i)[1]);
}

TEST(Prtt, DeterministicAndOptionsChecked) {
    const nlohmann::json opts = {{"sizes", {1, 4096}}, {"repeats", 1}, {"n", 4}};
    EXPECT_EQ(run_experiment("prtt", seastar_pair(), opts).to_json(), run_experiment("prtt", seastar_pair(), opts).to_json());
    try {
        run_experiment("prtt", seastar_pair(), {{"n", 1}});
        ADD_FAILURE();
    } catch (const ExperimentError& e) {
        EXPECT_NE(std::string(e.what()).find("'n'"), std::string::npos) << e.what();
    }
    try {
        run_experiment("prtt", seastar_pair(), {{"size", {1}}});
        ADD_FAILURE();
    } catch (const ExperimentError& e) {
        EXPECT_NE(std::string(e.what()).find("'size'"), std::string::npos) << e.what();
    }
}

}  // namespace
