#pragma once
// Shared declarations of the pybind11 module: one bind_* function per layer.
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace niclab::bindings {

void register_errors(pybind11::module_& m);
void bind_nic(pybind11::module_& m);
void bind_system(pybind11::module_& m);
void bind_trace(pybind11::module_& m);  // after bind_nic: adds Nic.trace
void bind_portals(pybind11::module_& m);
void bind_startx(pybind11::module_& m);  // JamNode: a StarT-X node's JAM from Python
void bind_dsnic(pybind11::module_& m);   // CspNode: a DSNIC node's CSP channels from Python
void bind_grim(pybind11::module_& m);    // GrimNode: a GRIM node's endpoint from Python
void bind_grim_mc(pybind11::module_& m); // GrimMulticast: its multicast calls (§8.1)
void bind_grim_sockets(pybind11::module_& m);  // GrimSockets: GRIM's sockets emulation (§8.3)
void bind_fits(pybind11::module_& m);
void bind_exp(pybind11::module_& m);  // experiments registry, ExpResult, run_experiment
void bind_gdb(pybind11::module_& m);  // GdbServer: a node's GDB stub

nlohmann::json to_json(const pybind11::handle& obj, const std::string& path);

// Text from the simulated world (an ELF's symbol and file names, a firmware's panic
// reason) as a Python str: UTF-8 with any invalid byte replaced (U+FFFD), so a stray
// byte never turns a fault report into a UnicodeDecodeError.
inline pybind11::str text(std::string_view s) {
    PyObject* o = PyUnicode_DecodeUTF8(s.data(), Py_ssize_t(s.size()), "replace");
    if (!o) throw pybind11::error_already_set();
    return pybind11::reinterpret_steal<pybind11::str>(o);
}
pybind11::object from_json(const nlohmann::json& j);

// A System reached from another thread while one runs it (niclab.errors.SystemBusy).
class SystemBusy : public std::runtime_error {
public:
    SystemBusy(const std::string& operation, const std::string& message)
        : std::runtime_error(message), operation_(operation) {}
    const std::string& operation() const { return operation_; }

private:
    std::string operation_;
};
}  // namespace niclab::bindings

namespace niclab::core { class FirmwareFault; }
namespace niclab::bindings {
// The Python-visible fields of a firmware fault (pc, function, cause, ...).
pybind11::dict fault_attrs(const core::FirmwareFault& f);

}  // namespace niclab::bindings
