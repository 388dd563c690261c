// niclab._niclab experiments: the registry, exp::Result as ExpResult (rows as NumPy
// arrays, metadata as dicts) and run_experiment. A run releases the GIL for its whole
// length; the observer, called between points on this thread, takes it back only to
// call Python and to look for Ctrl-C.
#include <optional>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "niclab/exp/experiments.hpp"
#include "niclab/exp/published_points.hpp"
#include "niclab/exp/result.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/system/system_spec.hpp"
#include "sigint_watch.hpp"

namespace py = pybind11;
using niclab::exp::Result;

namespace niclab::bindings {

namespace {

py::array_t<double> rows_array(const Result& r) {
    const auto width = py::ssize_t(r.columns().size()), height = py::ssize_t(r.rows());
    py::array_t<double> a({height, width});
    auto m = a.mutable_unchecked<2>();
    for (py::ssize_t i = 0; i < height; ++i) {
        const auto& row = r.row(size_t(i));
        for (py::ssize_t j = 0; j < width; ++j) m(i, j) = row[size_t(j)];
    }
    return a;
}

py::array_t<double> column_array(const Result& r, const std::string& name) {
    std::vector<double> v = r.column(name);  // ResultError naming the columns there are
    py::array_t<double> a(py::ssize_t(v.size()));
    std::copy(v.begin(), v.end(), a.mutable_data());
    return a;
}

// Runs one experiment with the GIL released. What the observer (Python) did is kept
// here and turned into Python behaviour once the run has returned: its exception is
// re-raised; Ctrl-C (a KeyboardInterrupt from PyErr_CheckSignals or from the observer
// itself) stops the run cleanly and is reported as a warning, keeping the points.
// Ctrl-C within a point (SigintWatch) abandons that point: the points before it are kept.
Result run(const std::string& name, const py::dict& spec_dict, const py::dict& options_dict, py::object observer,
           bool trace, bool counters, bool breakdown) {
    const system::SystemSpec spec = system::SystemSpec::from_json(to_json(spec_dict, ""));
    const nlohmann::json options = to_json(options_dict, "options");
    const bool observed = !observer.is_none();
    bool interrupted = false;
    std::optional<py::error_already_set> raised;
    SigintWatch sigint;
    std::optional<Result> so_far;  // the points before the one a Ctrl-C abandons

    exp::PointObserver point = [&](const Result& r) -> bool {
        if (sigint.flag()) so_far = r;
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) {
            if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
                PyErr_Clear();
                interrupted = true;
            } else {
                raised.emplace();  // a signal handler raised something else: re-raise it later
            }
            return false;
        }
        if (!observed) return true;
        try {
            py::object keep_going = observer(Result(r));
            return keep_going.is_none() || keep_going.cast<bool>();
        } catch (py::error_already_set& e) {
            if (e.matches(PyExc_KeyboardInterrupt))
                interrupted = true;
            else
                raised.emplace(std::move(e));
            return false;
        } catch (const py::cast_error&) {
            PyErr_SetString(PyExc_TypeError, "the observer must return True, False or None");
            raised.emplace();
            return false;
        }
    };

    std::optional<Result> result;
    try {
        py::gil_scoped_release release;
        result.emplace(
            exp::run_experiment(name, spec, options, exp::Observe{point, trace, counters, breakdown, sigint.flag()}));
    } catch (const sim::Cancelled&) {
        if (!sigint.raised()) throw;  // only the watch sets the flag: never
        // Python's handler ran too: its KeyboardInterrupt (or what a handler raised) is pending.
        if (PyErr_CheckSignals() == 0) PyErr_SetNone(PyExc_KeyboardInterrupt);
        // A handler's own exception, or no point measured to keep: it propagates.
        if (!PyErr_ExceptionMatches(PyExc_KeyboardInterrupt) || !so_far) throw py::error_already_set();
        PyErr_Clear();
        interrupted = true;
        result = std::move(so_far);
    }
    if (raised) {
        raised->restore();
        raised.reset();
        throw py::error_already_set();
    }
    if (interrupted) {
        result->stopped = true;
        const std::string msg = "niclab: " + name + " interrupted (Ctrl-C); keeping the " +
                                std::to_string(result->rows()) + " point(s) measured so far";
        if (PyErr_WarnEx(PyExc_RuntimeWarning, msg.c_str(), 1) != 0) throw py::error_already_set();
    }
    return std::move(*result);
}

}  // namespace

void bind_exp(py::module_& m) {
    m.def("experiments", [] {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& e : exp::experiments()) out.emplace_back(e.name, e.summary);
        return out;
    }, "The registered experiments: a list of (name, summary).");

    m.def("published_points", [](const Result& r, const std::string& column) {
        py::list out;
        for (const auto& p : exp::published_points(r, column)) out.append(py::make_tuple(p.x, p.value, p.label));
        return out;
    }, py::arg("result"), py::arg("column"),
       "The published values result's sweep can be set against in `column`: (x, value, label) tuples "
       "(exp/published_points.hpp, the rule the GUI draws with too).");

    py::class_<Result>(m, "ExpResult", "An experiment's rows, fit and reproducibility metadata (exp::Result).")
        .def(py::init([](const std::string& experiment, const std::vector<std::pair<std::string, std::string>>& columns) {
            std::vector<exp::Column> cols;
            for (const auto& [name, unit] : columns) cols.push_back({name, unit});
            return Result(experiment, std::move(cols));
        }), py::arg("experiment"), py::arg("columns"))
        .def_property_readonly("experiment", &Result::experiment)
        .def_property_readonly("columns", [](const Result& r) {
            std::vector<std::pair<std::string, std::string>> out;
            for (const auto& c : r.columns()) out.emplace_back(c.name, c.unit);
            return out;
        }, "(name, unit) per column, in order")
        .def_property_readonly("rows", &rows_array, "a copy of the rows: float64 array of shape (rows, columns)")
        .def("column", &column_array, py::arg("name"), "one column as a float64 array (a copy)")
        .def("has_column", &Result::has_column, py::arg("name"))
        .def("add_row", &Result::add_row, py::arg("values"))
        .def("__len__", &Result::rows)
        .def_property_readonly("params", [](const Result& r) { return from_json(r.params); })
        .def_property_readonly("system", [](const Result& r) { return from_json(r.system); })
        .def_property_readonly("firmware", [](const Result& r) { return from_json(r.firmware); })
        .def_readwrite("seed", &Result::seed)
        .def_readonly("simulator", &Result::simulator)
        .def_readwrite("stopped", &Result::stopped)
        .def_readwrite("planned", &Result::planned)
        .def_property_readonly("observations", [](const Result& r) { return from_json(r.observations); })
        .def_property("fit", [](const Result& r) { return from_json(r.fit); },
                      [](Result& r, const py::dict& d) { r.fit = to_json(d, "fit"); })
        .def("to_json", [](const Result& r) { return from_json(r.to_json()); })
        .def_static("from_json", [](const py::dict& d) { return Result::from_json(to_json(d, "")); }, py::arg("data"))
        .def("to_csv", &Result::to_csv)
        .def("osu_text", &Result::osu_text, py::arg("value_column"))
        .def("netpipe_text", &Result::netpipe_text);

    m.def("run_experiment", &run, py::arg("name"), py::arg("spec"), py::arg("options"), py::arg("observer") = py::none(),
          py::arg("trace") = false, py::arg("counters") = false, py::arg("breakdown") = false,
          "Run a registered experiment on a system spec (firmware paths already resolved). "
          "observer(ExpResult) is called after each new point; False stops the run. trace / counters keep "
          "every node's trace ring and counters in the result's observations.");
}

}  // namespace niclab::bindings
