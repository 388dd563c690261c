#include "niclab/exp/fits.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace niclab::exp {

std::string format_number(double v) {
    std::ostringstream out;
    out.precision(6);
    out << v;
    return out.str();
}

namespace {

[[noreturn]] void fail(const std::string& what) { throw FitError(what); }

void require_finite(const char* fn, const char* name, std::span<const double> v) {
    for (std::size_t i = 0; i < v.size(); ++i)
        if (!std::isfinite(v[i])) fail(std::string(fn) + ": " + name + "[" + std::to_string(i) + "] is not finite");
}

double mean(std::span<const double> v) {
    double s = 0;
    for (double x : v) s += x;
    return s / double(v.size());
}

}  // namespace

LinearFit fit_line(std::span<const double> x, std::span<const double> y) {
    if (x.size() != y.size())
        fail("fit_line: x and y differ in length (" + std::to_string(x.size()) + " x, " + std::to_string(y.size()) +
             " y)");
    require_finite("fit_line", "x", x);
    require_finite("fit_line", "y", y);
    const std::size_t n = x.size();
    const double mx = n ? mean(x) : 0, my = n ? mean(y) : 0;
    // Centred sums: the raw-sum formula loses the slope to cancellation when x is large
    // (message sizes of megabytes) and the spread small.
    double sxx = 0, sxy = 0, syy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (n < 2) fail("fit_line: needs at least 2 points with distinct x, got " + std::to_string(n));
    if (sxx == 0)
        fail("fit_line: needs at least 2 points with distinct x, got " + std::to_string(n) + " points all at x = " +
             format_number(x[0]));
    LinearFit f;
    f.points = n;
    f.slope = sxy / sxx;
    f.intercept = my - f.slope * mx;
    double ssr = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double r = y[i] - (f.intercept + f.slope * x[i]);
        ssr += r * r;
    }
    f.r2 = syy > 0 ? 1 - ssr / syy : 1;
    // Two parameters from the data: n - 2 degrees of freedom remain for the residual.
    f.rms_residual = n > 2 ? std::sqrt(ssr / double(n - 2)) : 0;
    return f;
}

ThroughputFit fit_throughput(std::span<const double> sizes, std::span<const double> times_us) {
    ThroughputFit t;
    t.line = fit_line(sizes, times_us);
    if (!(t.line.slope > 0))
        fail("fit_throughput: time does not grow with size (slope " + format_number(t.line.slope) +
             " us/byte), r_inf is undefined");
    t.t0_us = t.line.intercept;
    t.r_inf_mb_s = 1 / t.line.slope;  // bytes per us == MB/s
    t.n_half_bytes = t.t0_us * t.r_inf_mb_s;
    return t;
}

CpuLoadFit fit_cpu_load(std::span<const double> sizes, std::span<const double> cpu_us_per_message,
                        const ThroughputFit& t) {
    if (!(t.t0_us > 0)) fail("fit_cpu_load: the throughput fit's t0 must be positive, got " + format_number(t.t0_us) + " us");
    if (!(t.r_inf_mb_s > 0))
        fail("fit_cpu_load: the throughput fit's r_inf must be positive, got " + format_number(t.r_inf_mb_s) + " MB/s");
    CpuLoadFit c;
    c.line = fit_line(sizes, cpu_us_per_message);
    c.c0_us = c.line.intercept;
    c.c_byte_ns = c.line.slope * 1e3;
    c.l0_percent = c.c0_us / t.t0_us * 100;
    // l_inf = lim c_n / t_n = c_byte * r_inf: us/byte times bytes/us, a fraction.
    c.l_inf_percent = c.line.slope * t.r_inf_mb_s * 100;
    return c;
}

double signature_steady_state_us(const SignatureCurve& curve) {
    const std::size_t n = curve.m.size();
    if (n != curve.t_per_msg_us.size())
        fail("extract_logp: the d = " + format_number(curve.d_us) + " us curve has " + std::to_string(n) + " m but " +
             std::to_string(curve.t_per_msg_us.size()) + " T/m values");
    if (n < 2)
        fail("extract_logp: the d = " + format_number(curve.d_us) + " us curve needs at least 2 points for a steady state, got " +
             std::to_string(n));
    // Once the pipeline is full every further message adds the same time: the slope of
    // T_total = m * T/m over the tail of the curve.
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return curve.m[a] < curve.m[b]; });
    const std::size_t tail = std::max<std::size_t>(2, (n + 1) / 2);
    std::vector<double> m, total;
    for (std::size_t k = n - tail; k < n; ++k) {
        const std::size_t i = order[k];
        m.push_back(curve.m[i]);
        total.push_back(curve.m[i] * curve.t_per_msg_us[i]);
    }
    return fit_line(m, total).slope;
}

LogPParams extract_logp(std::span<const SignatureCurve> curves, double rtt_us) {
    if (!(rtt_us > 0) || !std::isfinite(rtt_us))
        fail("extract_logp: the round trip must be positive and finite, got " + format_number(rtt_us) + " us");
    const SignatureCurve* zero = nullptr;
    const SignatureCurve* widest = nullptr;
    for (const SignatureCurve& c : curves) {
        if (c.d_us == 0 && !zero) zero = &c;
        if (!widest || c.d_us > widest->d_us) widest = &c;
    }
    if (!zero) fail("extract_logp: needs a curve with d = 0, got " + std::to_string(curves.size()) + " curves");
    LogPParams p;
    const auto first = std::min_element(zero->m.begin(), zero->m.end());
    if (first == zero->m.end() || zero->m.size() != zero->t_per_msg_us.size())
        fail("extract_logp: the d = 0 curve has no points or mismatched m and T/m");
    // Before the pipeline fills, P_s pays only the send overhead per message.
    p.o_s_us = zero->t_per_msg_us[std::size_t(first - zero->m.begin())];
    p.g_us = signature_steady_state_us(*zero);
    // With d > g the gap no longer limits P_s: each message costs o_s, the delay, and
    // the reply's receive overhead, which interrupts the delay.
    if (!(widest->d_us > p.g_us))
        fail("extract_logp: the largest delay d = " + format_number(widest->d_us) + " us must exceed the gap g = " +
             format_number(p.g_us) + " us to expose o_r");
    p.o_r_us = signature_steady_state_us(*widest) - p.o_s_us - widest->d_us;
    p.L_us = rtt_us / 2 - p.o_s_us - p.o_r_us;
    const double bounce = p.o_s_us + p.o_r_us;
    p.gap_is_overhead_bound = std::abs(p.g_us - bounce) <= 0.05 * bounce;
    return p;
}

LogGPParams fit_loggp(std::span<const PrttPoint> points, int n) {
    if (n < 2) fail("fit_loggp: needs n >= 2 messages per round trip, got " + std::to_string(n));
    if (points.size() < 2) fail("fit_loggp: needs at least 2 sizes, got " + std::to_string(points.size()));
    const double per = double(n - 1);
    std::vector<double> s_minus_1, gap;
    std::size_t smallest = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const PrttPoint& p = points[i];
        if (!(p.size >= 0)) fail("fit_loggp: size " + format_number(p.size) + " is negative");
        s_minus_1.push_back(std::max(p.size, 1.0) - 1);
        gap.push_back((p.prtt_n_0_us - p.prtt_1_0_us) / per);
        if (p.size < points[smallest].size) smallest = i;
    }
    LogGPParams r;
    try {
        r.gap_fit = fit_line(s_minus_1, gap);
    } catch (const FitError& e) {
        fail(std::string("fit_loggp: gap against size: ") + e.what());
    }
    r.g_us = r.gap_fit.intercept;
    r.G_us_per_byte = r.gap_fit.slope;
    r.lsq_us = r.gap_fit.rms_residual;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const PrttPoint& p = points[i];
        // A delay shorter than the gap lets the gap, not o_s, space the client's sends.
        if (!(p.d_us > gap[i]))
            fail("fit_loggp: at " + format_number(p.size) + " bytes the delay d = " + format_number(p.d_us) +
                 " us does not exceed the gap " + format_number(gap[i]) + " us");
        r.o_s_by_size_us.push_back((p.prtt_n_d_us - p.prtt_1_0_us) / per - p.d_us);
        r.o_r_by_size_us.push_back(p.o_r_us);
    }
    r.o_s_us = r.o_s_by_size_us[smallest];
    r.o_r_us = r.o_r_by_size_us[smallest];
    r.L_netgauge_us = points[smallest].prtt_1_0_us / 2;
    r.L_us = r.L_netgauge_us - r.o_s_us - r.o_r_us;
    return r;
}

}  // namespace niclab::exp
