// niclab._niclab fits: the C++ analysis (exp/fits.hpp) for data from anywhere, so a
// notebook fits a published curve with the very code the experiments use. Results
// come back as dicts of floats (times in us, sizes in bytes, bandwidth in MB/s).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "niclab/exp/fits.hpp"
#include "niclab/exp/fitted_curve.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace niclab::bindings {

namespace {

using namespace niclab::exp;

py::dict line_dict(const LinearFit& f) {
    return py::dict("intercept"_a = f.intercept, "slope"_a = f.slope, "r2"_a = f.r2,
                    "rms_residual"_a = f.rms_residual, "points"_a = f.points);
}

py::dict throughput_dict(const ThroughputFit& t) {
    return py::dict("t0_us"_a = t.t0_us, "r_inf_mb_s"_a = t.r_inf_mb_s, "n_half_bytes"_a = t.n_half_bytes,
                    "line"_a = line_dict(t.line));
}

}  // namespace

void bind_fits(py::module_& m) {
    // A Result's fitted model over sizes (exp/fitted_curve.hpp): what plots draw dashed.
    m.def("fitted_curve", [](const py::handle& fit, const std::string& column, const std::vector<double>& sizes) {
        return fitted_curve(to_json(fit, "fit"), column, sizes);
    }, py::arg("fit"), py::arg("column"), py::arg("sizes"));
    m.def("fit_line", [](const std::vector<double>& x, const std::vector<double>& y) { return line_dict(fit_line(x, y)); },
          py::arg("x"), py::arg("y"));
    m.def("fit_throughput", [](const std::vector<double>& sizes, const std::vector<double>& times_us) {
        return throughput_dict(fit_throughput(sizes, times_us));
    }, py::arg("sizes"), py::arg("times_us"));
    m.def("fit_cpu_load", [](const std::vector<double>& sizes, const std::vector<double>& cpu_us, const std::vector<double>& times_us) {
        const ThroughputFit t = fit_throughput(sizes, times_us);
        const CpuLoadFit c = fit_cpu_load(sizes, cpu_us, t);
        py::dict d = throughput_dict(t);
        d.attr("update")(py::dict("c0_us"_a = c.c0_us, "c_byte_ns"_a = c.c_byte_ns, "l0_percent"_a = c.l0_percent,
                                  "l_inf_percent"_a = c.l_inf_percent, "cpu_line"_a = line_dict(c.line)));
        return d;
    }, py::arg("sizes"), py::arg("cpu_us_per_message"), py::arg("times_us"));
    m.def("extract_logp", [](const std::vector<std::tuple<double, std::vector<double>, std::vector<double>>>& curves, double rtt_us) {
        std::vector<SignatureCurve> c;
        for (const auto& [d, ms, t] : curves) c.push_back({d, ms, t});
        const LogPParams p = extract_logp(c, rtt_us);
        return py::dict("o_s_us"_a = p.o_s_us, "o_r_us"_a = p.o_r_us, "g_us"_a = p.g_us, "L_us"_a = p.L_us,
                        "gap_is_overhead_bound"_a = p.gap_is_overhead_bound);
    }, py::arg("curves"), py::arg("rtt_us"));
    m.def("fit_loggp", [](const std::vector<std::array<double, 6>>& rows, int n) {
        std::vector<PrttPoint> points;
        for (const auto& r : rows) points.push_back({r[0], r[1], r[2], r[3], r[4], r[5]});
        const LogGPParams p = fit_loggp(points, n);
        return py::dict("L_us"_a = p.L_us, "o_s_us"_a = p.o_s_us, "o_r_us"_a = p.o_r_us, "g_us"_a = p.g_us,
                        "G_us_per_byte"_a = p.G_us_per_byte, "lsq_us"_a = p.lsq_us, "L_netgauge_us"_a = p.L_netgauge_us,
                        "gap_line"_a = line_dict(p.gap_fit));
    }, py::arg("rows"), py::arg("n"));
}

}  // namespace niclab::bindings
