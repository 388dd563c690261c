#include "niclab/exp/fitted_curve.hpp"

#include <optional>

namespace niclab::exp {

namespace {
std::optional<double> number(const nlohmann::json& fit, const char* key) {
    if (!fit.is_object() || !fit.contains(key) || !fit[key].is_number()) return std::nullopt;
    return fit[key].get<double>();
}
}  // namespace

std::vector<double> fitted_curve(const nlohmann::json& fit, const std::string& column, std::span<const double> sizes) {
    std::vector<double> out;
    const auto t0 = number(fit, "t0_us"), r_inf = number(fit, "r_inf_mb_s");
    const auto c0 = number(fit, "c0_us"), c_byte = number(fit, "c_byte_ns");
    if ((column == "latency_us" || column == "bandwidth_mb_s") && t0 && r_inf && *r_inf > 0) {
        for (double n : sizes) {
            const double t = *t0 + n / *r_inf;  // MB/s is bytes per microsecond
            out.push_back(column == "latency_us" ? t : n / t);
        }
    } else if (column == "cpu_us_per_msg" && c0 && c_byte) {
        for (double n : sizes) out.push_back(*c0 + *c_byte * 1e-3 * n);
    }
    return out;
}

}  // namespace niclab::exp
