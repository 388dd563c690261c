// niclab._niclab.GrimSockets: GRIM's sockets emulation (seed 004 §8.3, sockets.hpp) of
// one node from Python. Each call is a host process on the node (host_call.hpp).
// Python calls one node at a time, so connect does not wait for the server's accept
// (the request is on its way; writes may follow: the server keeps their data) and
// accept, run on the server afterwards, answers it. read blocks until data or the
// peer's close is there; one that nothing in the system will satisfy fails.
#include <string>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "system_guard.hpp"
#include "host_call.hpp"
#include "niclab/systems/grim/grim.hpp"
#include "niclab/systems/grim/sockets.hpp"

namespace py = pybind11;

namespace niclab::bindings {

namespace {

// Host memory the calls stage bytes in: clear of the transports' buffers and of the
// GrimNode's staging area (bind_grim.cpp, 0x3800'0000).
constexpr uint64_t kStageOut = 0x3900'0000, kStageIn = 0x3A00'0000;
constexpr uint64_t kStageBytes = 16ull << 20;

class GrimSockets {
public:
    const system::System& system() const { return sys_; }  // for the thread guard
    GrimSockets(system::System& sys, size_t node) : sys_(sys), node_(uint32_t(node)), so_(grim::sockets(sys, node)), calls_(sys, node_, "grim sockets") {}

    int connect(uint32_t node, uint32_t port) {
        int fd = -1;
        perform("connect", [&](host::ProcessContext& ctx) { fd = so_.connect(ctx, node, port, false); });
        return fd;
    }
    int accept(uint32_t port) {
        int fd = -1;
        if (!perform("accept", [&](host::ProcessContext& ctx) { fd = so_.accept(ctx, port); }))
            fail("accept: no connection request for port " + std::to_string(port) + " came, and nothing in the system was left to bring one");
        return fd;
    }
    void write(int fd, const std::string& data) {
        if (data.size() > kStageBytes) fail("write: at most " + std::to_string(kStageBytes) + " B a call from Python, not " + std::to_string(data.size()));
        sys_.host_memory(node_).write(kStageOut, {reinterpret_cast<const uint8_t*>(data.data()), data.size()});
        perform("write", [&](host::ProcessContext& ctx) { so_.write(ctx, fd, kStageOut, data.size()); });
    }
    py::bytes read(int fd, uint64_t max, bool all) {
        if (max > kStageBytes) fail("read: at most " + std::to_string(kStageBytes) + " B a call from Python, not " + std::to_string(max));
        uint64_t got = 0;
        const bool done = perform(all ? "read_full" : "read", [&](host::ProcessContext& ctx) {
            if (all) {
                so_.read_full(ctx, fd, kStageIn, max);
                got = max;
            } else {
                got = so_.read(ctx, fd, kStageIn, max);
            }
        });
        if (!done)
            fail("read: socket fd " + std::to_string(fd) + " holds " + std::to_string(so_.available(fd)) + " B" +
                 (all ? " of the " + std::to_string(max) + " asked for" : "") +
                 ", and nothing in the system was left to bring more (has the peer written?)");
        std::string out(got, '\0');
        sys_.host_memory(node_).read(kStageIn, {reinterpret_cast<uint8_t*>(out.data()), out.size()});
        return py::bytes(out);
    }
    uint64_t available(int fd) const { return so_.available(fd); }
    void close(int fd) {
        perform("close", [&](host::ProcessContext& ctx) { so_.close(ctx, fd); });
    }
    py::dict stats() const {
        py::dict d;
        d["blocks"] = so_.stats().blocks;
        d["bytes_in"] = so_.stats().bytes_in;
        d["fragments_out"] = so_.stats().fragments_out;
        return d;
    }
    uint32_t node() const { return node_; }

private:
    [[noreturn]] void fail(const std::string& what) const { throw grim::SocketError("node " + std::to_string(node_) + " (GRIM sockets): " + what, node_, -1); }
    bool perform(const std::string& what, std::function<void(host::ProcessContext&)> op) {
        return calls_.perform(what, std::move(op), [](const std::string& m) -> void { throw Error(m); });
    }

    system::System& sys_;
    uint32_t node_;
    grim::Sockets& so_;
    HostCalls calls_;
};

}  // namespace

void bind_grim_sockets(py::module_& m) {
    guarded_class<GrimSockets>(m, "GrimSockets",
                            "GRIM's sockets emulation on one node (seed 004 §8.3): connect(node, port), accept(port), write(fd, data), "
                            "read(fd, max, all), available(fd), close(fd), stats(). Each call is a host process.")
        .def(py::init([](system::System& sys, size_t node) {
            if (node >= sys.node_count())
                throw py::index_error("node " + std::to_string(node) + ": the system has " + std::to_string(sys.node_count()) + " nodes");
            return std::make_unique<GrimSockets>(sys, node);
        }), py::arg("system"), py::arg("node"), py::keep_alive<1, 2>())
        .def_property_readonly("node", &GrimSockets::node)
        .def("connect", &GrimSockets::connect, py::arg("node"), py::arg("port"))
        .def("accept", &GrimSockets::accept, py::arg("port"))
        .def("write", [](GrimSockets& s, int fd, const py::bytes& data) { s.write(fd, std::string(data)); }, py::arg("fd"), py::arg("data"))
        .def("read", &GrimSockets::read, py::arg("fd"), py::arg("max"), py::arg("all"))
        .def("available", &GrimSockets::available, py::arg("fd"))
        .def("close", &GrimSockets::close, py::arg("fd"))
        .def("stats", &GrimSockets::stats);
}

}  // namespace niclab::bindings
