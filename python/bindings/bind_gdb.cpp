// niclab._niclab.GdbServer: the GDB stub of one node's NIC core (debug/gdb_server.hpp).
// Everything that may block on the debugger releases the GIL, so the Python thread
// that started a run (or a test driving gdb) keeps going while a core is halted.
#include <chrono>

#include "bindings.hpp"
#include "system_guard.hpp"
#include "niclab/debug/gdb_server.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/system/system.hpp"

namespace py = pybind11;
using niclab::debug::GdbServer;
using niclab::system::System;

namespace niclab::bindings {

namespace {
std::unique_ptr<GdbServer> make_server(System& s, int64_t node, int64_t port) {
    const std::string name = s.model().name();
    if (node < 0 || size_t(node) >= s.node_count())
        throw system::ConfigError("node", "node " + std::to_string(node) + " does not exist: this " + name +
                                              " system has nodes 0.." + std::to_string(s.node_count() - 1));
    if (!s.has_embedded_nics())
        throw system::ConfigError("node", "node " + std::to_string(node) + " of the " + name +
                                              " system has no embedded core to debug (its NIC is fixed-function "
                                              "logic, not firmware); only NICs that run firmware (seastar) have a "
                                              "gdb server");
    if (port < 0 || port > 65535)
        throw system::ConfigError("port", "port " + std::to_string(port) + " is not a TCP port (0..65535; 0 picks a free one)");
    return std::make_unique<GdbServer>(s.nic(size_t(node)), uint16_t(port));
}
}  // namespace

void bind_gdb(py::module_& m) {
    guarded_class<GdbServer>(m, "GdbServer")
        .def_constant("port", &GdbServer::port)
        .def_property_readonly("connected", &GdbServer::connected)
        .def_property_readonly("sessions_ended", &GdbServer::sessions_ended)
        .def("wait_for_attach", [](GdbServer& g, double timeout_s) {
            RunMark mark(guard_key(g), "GdbServer.wait_for_attach");  // a session runs the core
            // In short waits, so Ctrl-C in the terminal still stops a `niclab gdb` nobody attached to.
            auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
            for (;;) {
                bool attached;
                {
                    py::gil_scoped_release release;
                    attached = g.wait_for_attach(200);
                }
                if (attached) return true;
                if (PyErr_CheckSignals() != 0) throw py::error_already_set();
                if (timeout_s >= 0 && std::chrono::steady_clock::now() >= deadline) return false;
            }
        }, py::arg("timeout_s") = -1.0)
        .def("poll", [](GdbServer& g) {
            RunMark mark(guard_key(g), "GdbServer.poll");
            py::gil_scoped_release release;
            g.poll_idle();
        })
        .def("close", &GdbServer::close);

    m.def("gdb_server", guarded("gdb_server", &make_server), py::arg("system"), py::arg("node"), py::arg("port") = 0,
          py::keep_alive<0, 1>());  // the server uses the system's NIC: keep the system alive
}

}  // namespace niclab::bindings
