// The synthetic LogGP machine follows its timing rules, and the LogP signature and the
// parametrized round trips measured on it give back the costs it was built with:
// extract_logp and fit_loggp recover what the programs' measurements contain.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "niclab/exp/fits.hpp"
#include "niclab/exp/logp_machine.hpp"

namespace niclab::exp {
namespace {

constexpr double kTol = 1e-9;

std::vector<SignatureCurve> signature(const LogPMachine& machine, const std::vector<double>& delays, int m_max) {
    std::vector<SignatureCurve> curves;
    for (double d : delays) {
        SignatureCurve c;
        c.d_us = d;
        for (int m = 1; m <= m_max; ++m) {
            c.m.push_back(m);
            c.t_per_msg_us.push_back(machine.signature_t_total_us(m, d) / m);
        }
        curves.push_back(c);
    }
    return curves;
}

TEST(LogPMachine, RoundTripIsTwiceOverheadsLatencyAndBytes) {
    const LogPMachine machine({.o_s_us = 1, .o_r_us = 1.5, .g_us = 4, .L_us = 6, .G_us_per_byte = 0.001});
    EXPECT_NEAR(machine.round_trip_us(), 2 * (1 + 1.5 + 6), kTol);
    EXPECT_NEAR(machine.round_trip_us(1), 2 * (1 + 1.5 + 6), kTol);  // 0 bytes costs what 1 does
    EXPECT_NEAR(machine.round_trip_us(1001), 2 * (1 + 1.5 + 6 + 1000 * 0.001), kTol);
}

TEST(LogPMachine, DefaultCapacityIsLatencyOverGap) {
    EXPECT_EQ(LogPMachine({.o_s_us = 1, .o_r_us = 1, .g_us = 4, .L_us = 6}).costs().capacity, 2);
    EXPECT_EQ(LogPMachine({.o_s_us = 1, .o_r_us = 1, .g_us = 4, .L_us = 1}).costs().capacity, 1);
    EXPECT_EQ(LogPMachine({.o_s_us = 1, .o_r_us = 1, .g_us = 4, .L_us = 6, .capacity = 5}).costs().capacity, 5);
}

TEST(LogPMachine, SendsArePacedByOverheadThenGap) {
    // Before any reply comes back (rtt 17), P_s injects at o_s, then every g.
    const LogPMachine machine({.o_s_us = 1, .o_r_us = 1.5, .g_us = 4, .L_us = 6});
    EXPECT_NEAR(machine.signature_t_total_us(1, 0), 1, kTol);
    EXPECT_NEAR(machine.signature_t_total_us(2, 0), 5, kTol);
    EXPECT_NEAR(machine.signature_t_total_us(4, 0), 13, kTol);
    // A delay longer than the gap spaces the sends instead.
    EXPECT_NEAR(machine.signature_t_total_us(2, 10), 1 + 10 + 1, kTol);
}

TEST(LogPMachine, ReplyInterruptsTheDelay) {
    // With d = 30 the first reply (arriving at 15.5) lands inside the first delay (1..31)
    // and moves its end back by o_r: the second send is issued at 1 + 30 + 1.5 + 1.
    const LogPMachine machine({.o_s_us = 1, .o_r_us = 1.5, .g_us = 4, .L_us = 6});
    EXPECT_NEAR(machine.signature_t_total_us(2, 30), 33.5, kTol);
}

TEST(LogPMachine, CapacityStallsTheSender) {
    // One message in the network at a time: each send is injected when the previous one
    // arrives, so the steady state is L = 6 us instead of g = 4.
    const LogPMachine limited({.o_s_us = 1, .o_r_us = 1.5, .g_us = 4, .L_us = 6, .capacity = 1});
    const std::vector<SignatureCurve> c = signature(limited, {0}, 64);
    EXPECT_NEAR(signature_steady_state_us(c[0]), 6, kTol);
    EXPECT_NEAR(limited.signature_t_total_us(2, 0), 1 + 6, kTol);
}

TEST(LogPMachine, LongMessagesPayPerByteInGapAndLatency) {
    const LogPMachine machine({.o_s_us = 1, .o_r_us = 1.5, .g_us = 4, .L_us = 6, .G_us_per_byte = 0.01});
    // Injections 4 + 99 * 0.01 apart for 100-byte messages.
    EXPECT_NEAR(machine.signature_t_total_us(2, 0, 100) - machine.signature_t_total_us(1, 0, 100), 4.99, kTol);
}

TEST(LogPMachine, RejectsBadCostsAndPrograms) {
    EXPECT_THROW(LogPMachine({.o_s_us = 1, .o_r_us = 1, .g_us = 0, .L_us = 1}), LogPMachineError);
    EXPECT_THROW(LogPMachine({.o_s_us = -1, .o_r_us = 1, .g_us = 1, .L_us = 1}), LogPMachineError);
    EXPECT_THROW(LogPMachine({.o_s_us = 1, .o_r_us = 1, .g_us = 1, .L_us = 1, .capacity = -1}), LogPMachineError);
    const LogPMachine machine({.o_s_us = 1, .o_r_us = 1, .g_us = 1, .L_us = 1});
    EXPECT_THROW(machine.signature_t_total_us(0, 0), LogPMachineError);
    EXPECT_THROW(machine.signature_t_total_us(1, -1), LogPMachineError);
    EXPECT_THROW(machine.prtt(8, 1), LogPMachineError);
    try {
        machine.round_trip_us(-1);
        ADD_FAILURE() << "no LogPMachineError";
    } catch (const LogPMachineError& e) {
        EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
    }
}

TEST(LogPSignature, RecoversGapBoundMachine) {
    // g > o_s + o_r: the d = 0 steady state is the network's gap. Replies land 1.5 us
    // after a send starts ((2L + 2 o_s + o_r) mod g), in P_s's idle time.
    const LogGPCosts costs{.o_s_us = 1, .o_r_us = 1.5, .g_us = 4, .L_us = 5};
    const LogPMachine machine(costs);
    const std::vector<SignatureCurve> curves = signature(machine, {0, 5, 10, 20}, 64);
    const LogPParams p = extract_logp(curves, machine.round_trip_us());
    EXPECT_NEAR(p.o_s_us, costs.o_s_us, kTol);
    EXPECT_NEAR(p.g_us, costs.g_us, kTol);
    EXPECT_NEAR(p.o_r_us, costs.o_r_us, kTol);
    EXPECT_NEAR(p.L_us, costs.L_us, kTol);
    EXPECT_FALSE(p.gap_is_overhead_bound);
}

TEST(LogPSignature, RepliesLandingJustBeforeSendsStretchTheGap) {
    // L = 6: each reply arrives 0.5 us before a send would start and delays it by 1 us;
    // the delays recur a round trip later, so the steady state is above g.
    const LogPMachine machine({.o_s_us = 1, .o_r_us = 1.5, .g_us = 4, .L_us = 6});
    const std::vector<SignatureCurve> curves = signature(machine, {0}, 64);
    const double steady = signature_steady_state_us(curves[0]);
    EXPECT_GT(steady, 4.1);
    EXPECT_LT(steady, 4 + 1.5);
}

TEST(LogPSignature, OverheadBoundMachineShowsBounceTimeAsGap) {
    // g < o_s + o_r: seed 002 footnote 5, the "gap" measured is P_r's bounce time o_s + o_r.
    const LogGPCosts costs{.o_s_us = 1, .o_r_us = 2, .g_us = 0.5, .L_us = 5};
    const LogPMachine machine(costs);
    const std::vector<SignatureCurve> curves = signature(machine, {0, 5, 10, 20}, 64);
    const LogPParams p = extract_logp(curves, machine.round_trip_us());
    EXPECT_NEAR(p.o_s_us, costs.o_s_us, kTol);
    EXPECT_NEAR(p.g_us, costs.o_s_us + costs.o_r_us, kTol);
    EXPECT_NEAR(p.o_r_us, costs.o_r_us, kTol);
    EXPECT_NEAR(p.L_us, costs.L_us, kTol);
    EXPECT_TRUE(p.gap_is_overhead_bound);
}

TEST(LogPSignature, DelayNotAboveTheGapCannotExposeReceiveOverhead) {
    const LogPMachine machine({.o_s_us = 1, .o_r_us = 1.5, .g_us = 4, .L_us = 6});
    const std::vector<SignatureCurve> curves = signature(machine, {0, 2}, 16);
    EXPECT_THROW(extract_logp(curves, machine.round_trip_us()), FitError);
}

TEST(LogPMachine, PrttFollowsTheLogGPFormulas) {
    const double o_s = 1, o_r = 1.5, g = 3, L = 4, G = 0.001, s = 4097;
    const int n = 10;
    const LogPMachine machine({.o_s_us = o_s, .o_r_us = o_r, .g_us = g, .L_us = L, .G_us_per_byte = G});
    const PrttPoint p = machine.prtt(s, n);
    const double one = 2 * (o_s + o_r + L + (s - 1) * G);
    EXPECT_EQ(p.size, s);
    EXPECT_NEAR(p.prtt_1_0_us, one, kTol);
    EXPECT_NEAR(p.prtt_n_0_us, one + (n - 1) * (g + (s - 1) * G), kTol);
    EXPECT_NEAR(p.d_us, one, kTol);
    EXPECT_NEAR(p.prtt_n_d_us, one + (n - 1) * (o_s + one), kTol);
    EXPECT_NEAR(p.o_r_us, o_r, kTol);
}

void expect_loggp_recovered(const LogGPCosts& costs) {
    const LogPMachine machine(costs);
    const int n = 10;
    std::vector<PrttPoint> pts;
    for (double s = 1; s <= 65536; s *= 2) pts.push_back(machine.prtt(s, n));
    const LogGPParams r = fit_loggp(pts, n);
    EXPECT_NEAR(r.g_us, costs.g_us, kTol);
    EXPECT_NEAR(r.G_us_per_byte, costs.G_us_per_byte, 1e-13);
    EXPECT_NEAR(r.lsq_us, 0, kTol);
    EXPECT_NEAR(r.o_s_us, costs.o_s_us, kTol);
    EXPECT_NEAR(r.o_r_us, costs.o_r_us, kTol);
    EXPECT_NEAR(r.L_us, costs.L_us, kTol);
    EXPECT_NEAR(r.L_netgauge_us, machine.round_trip_us(1) / 2, kTol);
    for (double v : r.o_s_by_size_us) EXPECT_NEAR(v, costs.o_s_us, kTol);
    for (double v : r.o_r_by_size_us) EXPECT_NEAR(v, costs.o_r_us, kTol);
}

TEST(LogGPRoundTrips, RecoversMachineWithSlowReceiver) {
    expect_loggp_recovered({.o_s_us = 1, .o_r_us = 1.5, .g_us = 3, .L_us = 4, .G_us_per_byte = 0.0008});
}

TEST(LogGPRoundTrips, RecoversMachineWithFastReceiver) {
    // o_r < o_s: the server would wait for each message if it did not let them queue
    // first; its spin of (n-1)*d makes it measure o_r, not the client's pace.
    expect_loggp_recovered({.o_s_us = 2, .o_r_us = 0.5, .g_us = 3, .L_us = 1.25, .G_us_per_byte = 0.004});
}

}  // namespace
}  // namespace niclab::exp
