#pragma once
// A Result's fitted model as a curve over its x axis (message size), for a plot to draw
// beside the measured column: the one place that knows which fit keys make which model.
//   t0_us, r_inf_mb_s (Comms1/2, cpu_load; seed 003 §8.4): latency_us = t0 + n / r_inf,
//       bandwidth_mb_s = n / (t0 + n / r_inf);
//   c0_us, c_byte_ns (cpu_load, seed 003 §10.1): cpu_us_per_msg = c0 + c_byte n.
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace niclab::exp {

// The model's values at `sizes` for `column`; empty when the fit has no model of that
// column (no fit, a fit error, another experiment's keys).
std::vector<double> fitted_curve(const nlohmann::json& fit, const std::string& column, std::span<const double> sizes);

}  // namespace niclab::exp
