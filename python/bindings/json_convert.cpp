// Python objects <-> JSON for system specs. Errors name the key path.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "niclab/system/config_error.hpp"

namespace py = pybind11;

namespace niclab::bindings {

nlohmann::json to_json(const py::handle& obj, const std::string& path) {
    if (obj.is_none()) return nullptr;
    if (py::isinstance<py::bool_>(obj)) return obj.cast<bool>();
    if (py::isinstance<py::int_>(obj)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
        if (overflow) throw system::ConfigError(path.empty() ? "<spec>" : path, "integer out of range");
        return int64_t(v);
    }
    if (py::isinstance<py::float_>(obj)) return obj.cast<double>();
    if (py::isinstance<py::str>(obj)) return obj.cast<std::string>();
    if (py::hasattr(obj, "__fspath__")) return py::str(obj.attr("__fspath__")()).cast<std::string>();
    if (py::isinstance<py::dict>(obj)) {
        nlohmann::json j = nlohmann::json::object();
        for (auto item : obj.cast<py::dict>()) {
            std::string key = py::str(item.first).cast<std::string>();
            j[key] = to_json(item.second, path.empty() ? key : path + "." + key);
        }
        return j;
    }
    if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
        nlohmann::json j = nlohmann::json::array();
        size_t i = 0;
        for (auto item : obj) j.push_back(to_json(item, path + "[" + std::to_string(i++) + "]"));
        return j;
    }
    throw system::ConfigError(path.empty() ? "<spec>" : path,
                              "cannot use a value of Python type " + py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>());
}

py::object from_json(const nlohmann::json& j) {
    return py::module_::import("json").attr("loads")(j.dump());
}

}  // namespace niclab::bindings
