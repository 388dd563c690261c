// niclab._niclab fits: the C++ analysis (exp/fits.hpp) for data from anywhere, so a
// notebook fits a published curve with the very code the experiments use. Results
// come back as dicts of floats (times in us, sizes in bytes, bandwidth in MB/s).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "niclab/exp/fits.hpp"

namespace py = pybind11;

namespace niclab::bindings {

namespace {

using namespace niclab::exp;

py::dict line_dict(const LinearFit& f) {
    py::dict d;
    d["intercept"] = f.intercept;
    d["slope"] = f.slope;
    d["r2"] = f.r2;
    d["rms_residual"] = f.rms_residual;
    d["points"] = f.points;
    return d;
}

py::dict throughput_dict(const ThroughputFit& t) {
    py::dict d;
    d["t0_us"] = t.t0_us;
    d["r_inf_mb_s"] = t.r_inf_mb_s;
    d["n_half_bytes"] = t.n_half_bytes;
    d["line"] = line_dict(t.line);
    return d;
}

}  // namespace

void bind_fits(py::module_& m) {
    m.def("fit_line", [](const std::vector<double>& x, const std::vector<double>& y) { return line_dict(fit_line(x, y)); },
          py::arg("x"), py::arg("y"));
    m.def("fit_throughput", [](const std::vector<double>& sizes, const std::vector<double>& times_us) {
        return throughput_dict(fit_throughput(sizes, times_us));
    }, py::arg("sizes"), py::arg("times_us"));
    m.def("fit_cpu_load", [](const std::vector<double>& sizes, const std::vector<double>& cpu_us, const std::vector<double>& times_us) {
        const ThroughputFit t = fit_throughput(sizes, times_us);
        const CpuLoadFit c = fit_cpu_load(sizes, cpu_us, t);
        py::dict d = throughput_dict(t);
        d["c0_us"] = c.c0_us;
        d["c_byte_ns"] = c.c_byte_ns;
        d["l0_percent"] = c.l0_percent;
        d["l_inf_percent"] = c.l_inf_percent;
        d["cpu_line"] = line_dict(c.line);
        return d;
    }, py::arg("sizes"), py::arg("cpu_us_per_message"), py::arg("times_us"));
    m.def("extract_logp", [](const std::vector<std::tuple<double, std::vector<double>, std::vector<double>>>& curves, double rtt_us) {
        std::vector<SignatureCurve> c;
        for (const auto& [d, ms, t] : curves) c.push_back({d, ms, t});
        const LogPParams p = extract_logp(c, rtt_us);
        py::dict d;
        d["o_s_us"] = p.o_s_us;
        d["o_r_us"] = p.o_r_us;
        d["g_us"] = p.g_us;
        d["L_us"] = p.L_us;
        d["gap_is_overhead_bound"] = p.gap_is_overhead_bound;
        return d;
    }, py::arg("curves"), py::arg("rtt_us"));
    m.def("fit_loggp", [](const std::vector<std::array<double, 6>>& rows, int n) {
        std::vector<PrttPoint> points;
        for (const auto& r : rows) points.push_back({r[0], r[1], r[2], r[3], r[4], r[5]});
        const LogGPParams p = fit_loggp(points, n);
        py::dict d;
        d["L_us"] = p.L_us;
        d["o_s_us"] = p.o_s_us;
        d["o_r_us"] = p.o_r_us;
        d["g_us"] = p.g_us;
        d["G_us_per_byte"] = p.G_us_per_byte;
        d["lsq_us"] = p.lsq_us;
        d["L_netgauge_us"] = p.L_netgauge_us;
        d["gap_line"] = line_dict(p.gap_fit);
        return d;
    }, py::arg("rows"), py::arg("n"));
}

}  // namespace niclab::bindings
