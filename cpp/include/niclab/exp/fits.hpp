#pragma once
// The analysis the papers apply to their measurements: straight-line fits, the Parkbench
// timing and CPU-load models (seed 003 §10), the LogP signature (Culler et al., seed 002
// §6.1) and LogGP by parametrized round trips (Kielmann et al. 2000, Netgauge).
//
// Units as the papers: times in microseconds, sizes in bytes, bandwidth in MB/s
// (10^6 bytes/s, which is the same number as bytes per microsecond). Pure functions of
// their inputs; every error is a FitError whose message names the function and the
// problem.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "niclab/sim/error.hpp"

namespace niclab::exp {

class FitError : public Error {
public:
    using Error::Error;
};

// A number for an error message: enough digits to tell values apart, no trailing zeros.
std::string format_number(double v);

// Ordinary least squares y = intercept + slope * x.
// r2 = 1 - SSR/SST (1 when every y is equal and the line goes through them);
// rms_residual = sqrt(SSR / (points - 2)) for more than 2 points (the "lsqu" quality
// Netgauge reports), 0 for exactly 2.
struct LinearFit {
    double intercept = 0, slope = 0;
    double r2 = 0;
    double rms_residual = 0;
    std::size_t points = 0;
};
// Needs at least 2 points with distinct x, equal lengths, finite values.
LinearFit fit_line(std::span<const double> x, std::span<const double> y);

// Parkbench's Comms1/Comms2 timing model (seed 003 §10): t_n = t0 + n / r_inf and
// n_1/2 = t0 * r_inf, the message length that reaches half the asymptotic bandwidth.
// `times_us` are one-way message times (half the bounce time).
struct ThroughputFit {
    double t0_us = 0, r_inf_mb_s = 0, n_half_bytes = 0;
    LinearFit line;  // time (us) against size (bytes)
};
// Needs the time to grow with size (slope > 0), or r_inf is undefined.
ThroughputFit fit_throughput(std::span<const double> sizes, std::span<const double> times_us);

// Seed 003 §10.1 CPU-load model: c_n = c0 + c_byte * n is the CPU time one message of
// n bytes costs; the load l_n = c_n / t_n; l_0 = c0 / t0 and l_inf = c_byte * r_inf.
struct CpuLoadFit {
    double c0_us = 0, c_byte_ns = 0, l0_percent = 0, l_inf_percent = 0;
    LinearFit line;  // CPU time (us) against size (bytes)
};
// `t` must have t0 > 0 and r_inf > 0 (the loads are ratios to it).
CpuLoadFit fit_cpu_load(std::span<const double> sizes, std::span<const double> cpu_us_per_message,
                        const ThroughputFit& t);

// LogP signature (Culler, Liu, Martin, Yoshikawa, IEEE Micro 1996; seed 002 §6.1): P_s
// sends m messages to P_r with a delay d between them, each answered by a reply;
// T_total is the time P_s needs to issue the m messages. One curve of T_total/m against
// m per d.
struct SignatureCurve {
    double d_us = 0;
    std::vector<double> m;
    std::vector<double> t_per_msg_us;
};
struct LogPParams {
    double o_s_us = 0, o_r_us = 0, g_us = 0, L_us = 0;
    // Seed 002 footnote 5: when g < o_s + o_r the receiver's bounce time shows up as an
    // artificial gap; true when the d = 0 steady state is o_s + o_r within 5 %.
    bool gap_is_overhead_bound = false;
};
// Needs a curve with d = 0 (at least 2 points) and a curve whose d exceeds the extracted
// g; rtt_us is a separately measured round trip of one message (L = rtt/2 - o_s - o_r).
//  o_s: T/m at the smallest m of the d = 0 curve (before the pipeline fills);
//  g:   the steady state of the d = 0 curve;
//  o_r: steady state of the largest-d curve minus o_s + d.
// The steady state is the marginal time per message, the least-squares slope of
// T_total against m over the last half (at least 2) of a curve's points: the mean of T/m
// approaches it only as 1/m, which would bias g by (startup - g)/m, and a real host's
// curve steps (interrupts batch the events that arrived meanwhile), so a short tail
// would read one step as the slope.
LogPParams extract_logp(std::span<const SignatureCurve> curves, double rtt_us);

// The marginal time per message (us) of one signature curve, as extract_logp uses it.
double signature_steady_state_us(const SignatureCurve& curve);

// LogGP by parametrized round trips (Kielmann et al. 2000; Hoefler et al., Netgauge's
// "loggp" pattern). PRTT(n,d,s): the client sends n messages of s bytes with a delay d
// before each after the first; the server answers the n-th with one message of s bytes.
// One point per size: PRTT(1,0,s), PRTT(n,0,s), PRTT(n,d,s) with its d (= PRTT(1,0,s),
// which must exceed the gap at s) and o_r(s) as the server measured it.
struct PrttPoint {
    double size = 0, prtt_1_0_us = 0, prtt_n_0_us = 0, prtt_n_d_us = 0, d_us = 0, o_r_us = 0;
};
struct LogGPParams {
    double L_us = 0, o_s_us = 0, o_r_us = 0, g_us = 0, G_us_per_byte = 0, lsq_us = 0, L_netgauge_us = 0;
    LinearFit gap_fit;  // (PRTT(n,0,s) - PRTT(1,0,s)) / (n-1) against s - 1
    std::vector<double> o_s_by_size_us, o_r_by_size_us;  // in the order of the points given
};
// Per size s:  gap(s) = (PRTT(n,0,s) - PRTT(1,0,s)) / (n-1) = g + G*(s-1), fitted by least
//              squares over s (intercept g, slope G, lsq = rms residual). LogGP sends the
//              last of s bytes (s-1)*G after the first, so the fit is against s-1 and its
//              intercept is the g of a 1-byte message (0 bytes counts as 1); a fit
//              against s would report g - G.
//              o_s(s) = (PRTT(n,d,s) - PRTT(1,0,s)) / (n-1) - d.
// At the smallest size: o_s_us, o_r_us, L = PRTT(1,0,s)/2 - o_s - o_r (LogP's definition)
// and L_netgauge_us = PRTT(1,0,s)/2 (what Netgauge prints as L). Use a smallest size of
// 0 or 1 byte: for larger ones L also holds (s-1)*G.
// Needs n >= 2 and at least 2 points with distinct sizes.
LogGPParams fit_loggp(std::span<const PrttPoint> points, int n);

}  // namespace niclab::exp
