// The fits recover the parameters of data built from known models, report the quality of
// noisy data as computed by hand, and reject input they cannot fit with a message that
// names the problem.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "niclab/exp/fits.hpp"

namespace niclab::exp {
namespace {

// Runs `f`, expecting a FitError whose message contains every one of `parts`.
void expect_fit_error(const std::function<void()>& f, const std::vector<std::string>& parts) {
    try {
        f();
        ADD_FAILURE() << "no FitError";
    } catch (const FitError& e) {
        for (const std::string& part : parts)
            EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what() << " lacks '" << part << "'";
    }
}

std::vector<double> powers_of_two(double from, double to) {
    std::vector<double> v;
    for (double s = from; s <= to; s *= 2) v.push_back(s);
    return v;
}

TEST(FitLine, RecoversExactLine) {
    const std::vector<double> x{0, 1, 2, 5, 10, 100};
    std::vector<double> y;
    for (double v : x) y.push_back(-3.5 + 0.25 * v);
    const LinearFit f = fit_line(x, y);
    EXPECT_DOUBLE_EQ(f.intercept, -3.5);
    EXPECT_DOUBLE_EQ(f.slope, 0.25);
    EXPECT_NEAR(f.r2, 1.0, 1e-15);
    EXPECT_NEAR(f.rms_residual, 0.0, 1e-12);
    EXPECT_EQ(f.points, 6u);
}

TEST(FitLine, NoisyDataMatchesHandComputation) {
    // mean x 1.5, mean y 2.75, Sxx 5, Sxy 5.5 -> slope 1.1, intercept 1.1;
    // residuals -0.1, 0.8, -1.3, 0.6 -> SSR 2.7; SST 8.75 -> r2 = 1 - 2.7/8.75;
    // rms = sqrt(2.7 / (4 - 2)).
    const std::vector<double> x{0, 1, 2, 3}, y{1, 3, 2, 5};
    const LinearFit f = fit_line(x, y);
    EXPECT_NEAR(f.slope, 1.1, 1e-12);
    EXPECT_NEAR(f.intercept, 1.1, 1e-12);
    EXPECT_NEAR(f.r2, 1 - 2.7 / 8.75, 1e-12);
    EXPECT_NEAR(f.rms_residual, std::sqrt(1.35), 1e-12);
}

TEST(FitLine, TwoPointsHaveNoResidual) {
    const std::vector<double> x{1, 3}, y{2, 8};
    const LinearFit f = fit_line(x, y);
    EXPECT_DOUBLE_EQ(f.slope, 3);
    EXPECT_DOUBLE_EQ(f.intercept, -1);
    EXPECT_EQ(f.rms_residual, 0);
}

TEST(FitLine, FlatDataFitsPerfectly) {
    const std::vector<double> x{1, 2, 3}, y{4, 4, 4};
    const LinearFit f = fit_line(x, y);
    EXPECT_EQ(f.slope, 0);
    EXPECT_EQ(f.r2, 1);
}

TEST(FitLine, RejectsWhatItCannotFit) {
    const std::vector<double> one{1}, three{1, 2, 3}, two{1, 2}, same{5, 5, 5};
    expect_fit_error([&] { fit_line(one, one); }, {"fit_line", "at least 2 points", "got 1"});
    expect_fit_error([&] { fit_line(same, three); }, {"fit_line", "distinct x", "all at x = 5"});
    expect_fit_error([&] { fit_line(three, two); }, {"fit_line", "differ in length", "3 x", "2 y"});
    const std::vector<double> nan{1, std::nan(""), 3};
    expect_fit_error([&] { fit_line(three, nan); }, {"fit_line", "y[1]", "not finite"});
}

TEST(FitThroughput, RecoversParkbenchModel) {
    // Seed 003 §10: t_n = t0 + n / r_inf, n_1/2 = t0 * r_inf.
    const double t0 = 5.39, r_inf = 1108.76;
    const std::vector<double> sizes = powers_of_two(1, 1 << 20);
    std::vector<double> t;
    for (double n : sizes) t.push_back(t0 + n / r_inf);
    const ThroughputFit f = fit_throughput(sizes, t);
    EXPECT_NEAR(f.t0_us, t0, 1e-9);
    EXPECT_NEAR(f.r_inf_mb_s, r_inf, 1e-6);
    EXPECT_NEAR(f.n_half_bytes, t0 * r_inf, 1e-5);
    EXPECT_NEAR(f.n_half_bytes, 5976.2, 0.1);
    EXPECT_NEAR(f.line.r2, 1, 1e-12);
}

TEST(FitThroughput, RejectsTimeThatDoesNotGrow) {
    const std::vector<double> sizes{1, 2, 3}, t{5, 4, 3};
    expect_fit_error([&] { fit_throughput(sizes, t); }, {"fit_throughput", "slope", "r_inf"});
}

TEST(FitCpuLoad, RecoversSeed003Model) {
    // Seed 003 §9.3/§10.1: 7.93 ns/byte at 8.3 MB/s is a 6.6 % asymptotic load.
    const double t0 = 67, r_inf = 8.3, c0 = 30, c_byte_us = 7.93e-3;
    const std::vector<double> sizes = powers_of_two(8, 1 << 20);
    std::vector<double> t, c;
    for (double n : sizes) {
        t.push_back(t0 + n / r_inf);
        c.push_back(c0 + c_byte_us * n);
    }
    const ThroughputFit tf = fit_throughput(sizes, t);
    const CpuLoadFit f = fit_cpu_load(sizes, c, tf);
    EXPECT_NEAR(f.c0_us, c0, 1e-9);
    EXPECT_NEAR(f.c_byte_ns, 7.93, 1e-9);
    EXPECT_NEAR(f.l0_percent, c0 / t0 * 100, 1e-9);
    EXPECT_NEAR(f.l_inf_percent, c_byte_us * r_inf * 100, 1e-9);
    EXPECT_NEAR(f.l_inf_percent, 6.6, 0.05);
}

TEST(FitCpuLoad, NeedsAUsableThroughputFit) {
    const std::vector<double> sizes{1, 2}, c{1, 2};
    ThroughputFit t;
    t.t0_us = 0;
    t.r_inf_mb_s = 10;
    expect_fit_error([&] { fit_cpu_load(sizes, c, t); }, {"fit_cpu_load", "t0"});
    t.t0_us = 5;
    t.r_inf_mb_s = -1;
    expect_fit_error([&] { fit_cpu_load(sizes, c, t); }, {"fit_cpu_load", "r_inf"});
}

// A signature curve of a machine that pays `startup` once and `per` for each message.
SignatureCurve linear_curve(double d, double startup, double per, int m_max) {
    SignatureCurve c;
    c.d_us = d;
    for (int m = 1; m <= m_max; ++m) {
        c.m.push_back(m);
        c.t_per_msg_us.push_back((startup + per * (m - 1)) / m);
    }
    return c;
}

TEST(ExtractLogp, SteadyStateIsTheMarginalCostNotTheMean) {
    // T/m at m = 64 is still 0.14 us above the marginal 2 us here.
    const SignatureCurve c = linear_curve(0, 11, 2, 64);
    EXPECT_NEAR(signature_steady_state_us(c), 2, 1e-12);
    EXPECT_GT(c.t_per_msg_us.back() - 2, 0.1);
}

TEST(ExtractLogp, ReadsParametersOffIdealCurves) {
    // o_s 1, g 4, o_r 1.5: the d = 0 curve starts at o_s and settles at g; the d = 10 one
    // settles at o_s + d + o_r. rtt 17 = 2 (o_s + o_r + L) with L = 6.
    SignatureCurve zero = linear_curve(0, 1, 4, 64);
    const std::vector<SignatureCurve> curves{zero, linear_curve(10, 1, 12.5, 64)};
    const LogPParams p = extract_logp(curves, 17);
    EXPECT_NEAR(p.o_s_us, 1, 1e-12);
    EXPECT_NEAR(p.g_us, 4, 1e-12);
    EXPECT_NEAR(p.o_r_us, 1.5, 1e-12);
    EXPECT_NEAR(p.L_us, 6, 1e-12);
    EXPECT_FALSE(p.gap_is_overhead_bound);
}

TEST(ExtractLogp, RejectsCurvesThatCannotExposeTheParameters) {
    const std::vector<SignatureCurve> no_zero{linear_curve(10, 1, 12.5, 8)};
    expect_fit_error([&] { extract_logp(no_zero, 17); }, {"extract_logp", "d = 0"});
    const std::vector<SignatureCurve> short_d{linear_curve(0, 1, 4, 8), linear_curve(3, 1, 5.5, 8)};
    expect_fit_error([&] { extract_logp(short_d, 17); }, {"extract_logp", "largest delay d = 3", "gap g = 4"});
    const std::vector<SignatureCurve> one_point{linear_curve(0, 1, 4, 1), linear_curve(10, 1, 12.5, 8)};
    expect_fit_error([&] { extract_logp(one_point, 17); }, {"extract_logp", "at least 2 points"});
    const std::vector<SignatureCurve> ok{linear_curve(0, 1, 4, 8), linear_curve(10, 1, 12.5, 8)};
    expect_fit_error([&] { extract_logp(ok, 0); }, {"extract_logp", "round trip"});
}

TEST(FitLoggp, ReadsParametersOffIdealRoundTrips) {
    // g 3, G 0.001, o_s 1, o_r 0.5, L 4, n 10.
    const double g = 3, G = 0.001, o_s = 1, o_r = 0.5, L = 4;
    const int n = 10;
    std::vector<PrttPoint> pts;
    for (double s : powers_of_two(1, 65536)) {
        PrttPoint p;
        p.size = s;
        p.prtt_1_0_us = 2 * (o_s + o_r + L + (s - 1) * G);
        p.prtt_n_0_us = p.prtt_1_0_us + (n - 1) * (g + (s - 1) * G);
        p.d_us = p.prtt_1_0_us;
        p.prtt_n_d_us = p.prtt_1_0_us + (n - 1) * (o_s + p.d_us);
        p.o_r_us = o_r;
        pts.push_back(p);
    }
    const LogGPParams r = fit_loggp(pts, n);
    EXPECT_NEAR(r.g_us, g, 1e-9);
    EXPECT_NEAR(r.G_us_per_byte, G, 1e-12);
    EXPECT_NEAR(r.lsq_us, 0, 1e-9);
    EXPECT_NEAR(r.o_s_us, o_s, 1e-9);
    EXPECT_NEAR(r.o_r_us, o_r, 1e-12);
    EXPECT_NEAR(r.L_us, L, 1e-9);
    EXPECT_NEAR(r.L_netgauge_us, o_s + o_r + L, 1e-9);
    ASSERT_EQ(r.o_s_by_size_us.size(), pts.size());
    for (double v : r.o_s_by_size_us) EXPECT_NEAR(v, o_s, 1e-9);
}

TEST(FitLoggp, RejectsWhatItCannotFit) {
    PrttPoint a{1, 10, 40, 110, 10, 1}, b{1024, 12, 52, 124, 12, 1};
    const std::vector<PrttPoint> pts{a, b};
    expect_fit_error([&] { fit_loggp(pts, 1); }, {"fit_loggp", "n >= 2", "got 1"});
    const std::vector<PrttPoint> one{a};
    expect_fit_error([&] { fit_loggp(one, 4); }, {"fit_loggp", "at least 2 sizes"});
    const std::vector<PrttPoint> same{a, a};
    expect_fit_error([&] { fit_loggp(same, 4); }, {"fit_loggp", "distinct x"});
    // gap at 1 byte is (40 - 10) / 3 = 10 us: a delay of 10 us does not exceed it.
    expect_fit_error([&] { fit_loggp(pts, 4); }, {"fit_loggp", "at 1 bytes", "delay d = 10", "gap 10"});
}

}  // namespace
}  // namespace niclab::exp
