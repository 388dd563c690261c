// The LogP signature (seed 002 §6.1) on the two-node SeaStar running the C Portals
// firmware: real messages, real interrupts, parameters extracted by extract_logp.
#include <gtest/gtest.h>

#include <cstdio>

#include "exp_test_support.hpp"
#include "niclab/exp/experiments.hpp"

using namespace niclab;
using namespace niclab::exp;
using namespace niclab::exp::testing;

namespace {

const nlohmann::json kSmall = {{"m", {1, 2, 4, 8, 16, 32, 40, 48, 56, 64}}, {"delays_us", {0, 10, 40}}};

void print(const Result& r) {
    for (size_t i = 0; i < r.rows(); ++i)
        std::printf("d %5.1f  m %3.0f  T %8.3f us  T/m %7.3f us\n", r.row(i)[0], r.row(i)[1], r.row(i)[2], r.row(i)[3]);
    std::printf("%s\n", r.fit.dump().c_str());
}

// T/m of one (d, m) row.
double per_msg(const Result& r, double d, double m) {
    for (size_t i = 0; i < r.rows(); ++i)
        if (r.row(i)[0] == d && r.row(i)[1] == m) return r.row(i)[3];
    ADD_FAILURE() << "no row d=" << d << " m=" << m;
    return 0;
}

TEST(LogPSignature, PutSignatureAndParameters) {
    auto r = run_experiment("logp_signature", seastar_pair(), kSmall);
    print(r);
    ASSERT_EQ(r.rows(), 3u * 10u);
    ASSERT_FALSE(r.fit.contains("error")) << r.fit.dump();
    const double o_s = r.fit["o_s_us"], o_r = r.fit["o_r_us"], g = r.fit["g_us"], L = r.fit["L_us"], rtt = r.fit["rtt_us"];
    EXPECT_GT(o_s, 0);
    EXPECT_GT(o_r, 0);
    EXPECT_GT(g, 0);
    EXPECT_NEAR(L + o_s + o_r, rtt / 2, 1e-9);
    // Generic mode: every received message costs P_s an interrupt (2 us on the seed's
    // host), and so does every send completion; the signature's o_r holds both, while a
    // round trip hides the second behind the message's flight, so L = rtt/2 - o_s - o_r
    // is off by about one interrupt (see logp_signature.cpp).
    EXPECT_GT(o_r, 2.0);
    EXPECT_GT(L, -2.0);
    EXPECT_LT(L, rtt / 2);
    // With d = 0 and many messages, each costs at least the send overhead; P_s is busy
    // with replies, so the gap is no more than its overhead (footnote 5 of seed 002).
    EXPECT_GE(per_msg(r, 0, 64), o_s);
    EXPECT_GT(g, o_s);
    EXPECT_LT(g, 1.1 * (o_s + o_r));
    // With a delay beyond the gap, the time per message approaches o_s + d + o_r.
    EXPECT_GT(40, g);
    EXPECT_NEAR(per_msg(r, 40, 64), o_s + 40 + o_r, 0.05 * (o_s + 40 + o_r));
    EXPECT_GT(per_msg(r, 40, 64), per_msg(r, 40, 8));
    // The first message costs the send overhead only.
    EXPECT_NEAR(per_msg(r, 0, 1), o_s, 1e-9);
}

TEST(LogPSignature, GetSignature) {
    auto r = run_experiment("logp_signature", seastar_pair(), {{"op", "get"}, {"m", {1, 2, 4, 8, 32, 48, 64}}, {"delays_us", {0, 40}}});
    print(r);
    ASSERT_EQ(r.rows(), 14u);
    ASSERT_FALSE(r.fit.contains("error")) << r.fit.dump();
    const double o_s = r.fit["o_s_us"], o_r = r.fit["o_r_us"], L = r.fit["L_us"], rtt = r.fit["rtt_us"];
    EXPECT_GT(o_s, 0);
    EXPECT_GT(o_r, 2.0);  // at least the reply's interrupt
    EXPECT_NEAR(L + o_s + o_r, rtt / 2, 1e-9);
    EXPECT_NEAR(per_msg(r, 40, 64), o_s + 40 + o_r, 0.05 * (o_s + 40 + o_r));
}

TEST(LogPSignature, DefaultsGiveOneRowPerDelayAndM) {
    auto r = run_experiment("logp_signature", seastar_pair(), {});
    EXPECT_EQ(r.rows(), 4u * 18u);
    EXPECT_FALSE(r.fit.contains("error")) << r.fit.dump();
    EXPECT_EQ(r.params["size"], 8);
}

TEST(LogPSignature, ObserverStops) {
    size_t calls = 0;
    auto r = run_experiment("logp_signature", seastar_pair(), kSmall, Observe{[&](const Result&) { return ++calls < 3; }});
    EXPECT_EQ(calls, 3u);
    EXPECT_EQ(r.rows(), 3u);
    EXPECT_TRUE(r.stopped);
}

TEST(LogPSignature, OptionErrorsNameTheKey) {
    expect_option_error("logp_signature", {{"delay_us", {1}}}, "delay_us");
    expect_option_error("logp_signature", {{"m", {0}}}, "'m'");
    expect_option_error("logp_signature", {{"delays_us", {-1}}}, "delays_us");
    expect_option_error("logp_signature", {{"op", "send"}}, "op");
}

}  // namespace
