// niclab._niclab.GrimNode: a GRIM node's endpoint (seed 004 §4.4, §4.5) driven from
// Python. Each call is a host process on the node (host_call.hpp): am_send pushes an
// active message into the NI with PIO and returns; handlers registered from Python
// collect what arrives (source, handler name, arguments, payload bytes) when the
// endpoint polls; rm_write_p writes host memory of another node by physical address;
// registered memory (malloc_pinned, pin_pages) is what rm_write_v and rm_read reach by
// virtual address, read and written here with read/write (the process's own loads and
// stores: no simulated time).
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "system_guard.hpp"
#include "host_call.hpp"
#include "niclab/fw/grim_fw.h"
#include "niclab/systems/grim/grim.hpp"

namespace py = pybind11;

namespace niclab::bindings {

namespace {

// Host memory the Python calls stage their payloads in, clear of the transports'.
constexpr uint64_t kStage = 0x3800'0000;

class GrimNode {
public:
    const system::System& system() const { return sys_; }  // for the thread guard
    GrimNode(system::System& sys, size_t node, uint32_t lc)
        : sys_(sys), node_(uint32_t(node)), ep_(grim::endpoint(sys, node, lc)), calls_(sys, node_, "grim") {}

    uint32_t handler(const std::string& name) {
        return ep_.register_handler(name, [this, name](host::ProcessContext&, const grim::ActiveMessage& m) {
            std::string bytes(m.bytes, '\0');
            sys_.host_memory(node_).read(m.payload_addr, {reinterpret_cast<uint8_t*>(bytes.data()), bytes.size()});
            inbox_.push_back({m.src_node, name, m.args, std::move(bytes)});
        });
    }

    void am_send(uint32_t dst, const std::string& name, const std::vector<uint32_t>& args, const std::string& data, uint32_t lc) {
        if (args.size() > 4) fail("am_send: at most four arguments, not " + std::to_string(args.size()));
        if (data.size() > GRIM_MTU) fail("am_send: " + std::to_string(data.size()) + " B is more than GRIM's MTU of " + std::to_string(GRIM_MTU) + " B");
        const uint32_t id = ep_.resolve(name);
        std::array<uint32_t, 4> a{};
        for (size_t i = 0; i < args.size(); ++i) a[i] = args[i];
        sys_.host_memory(node_).write(kStage, {reinterpret_cast<const uint8_t*>(data.data()), data.size()});
        // The stage is the node's, shared by its endpoints: each call is done before the next.
        perform("am_send", [&](host::ProcessContext& ctx) { ep_.am_send(ctx, dst, id, a, kStage, uint32_t(data.size()), lc); });
    }

    void rm_write_p(uint32_t dst, uint64_t remote, const std::string& data, uint64_t notify, uint32_t value) {
        sys_.host_memory(node_).write(kStage, {reinterpret_cast<const uint8_t*>(data.data()), data.size()});
        perform("rm_write_p", [&](host::ProcessContext& ctx) { ep_.rm_write_p(ctx, dst, remote, kStage, uint32_t(data.size()), notify, value); });
    }

    uint32_t malloc_pinned(uint32_t bytes) { return ep_.malloc_pinned(bytes); }
    uint32_t pin_pages(uint32_t bytes) { return ep_.pin_pages(bytes); }
    uint32_t pa(uint32_t va) const { return ep_.memory().pa(va); }
    void write(uint32_t va, const std::string& data) {
        ep_.memory().write(sys_.host_memory(node_), va, {reinterpret_cast<const uint8_t*>(data.data()), data.size()});
    }
    py::bytes read(uint32_t va, uint32_t bytes) const {
        std::string out(bytes, '\0');
        ep_.memory().read(sys_.host_memory(node_), va, {reinterpret_cast<uint8_t*>(out.data()), out.size()});
        return py::bytes(out);
    }

    void rm_write_v(uint32_t dst, uint32_t remote, uint32_t src, uint32_t bytes, uint32_t notify, uint32_t value) {
        perform("rm_write_v", [&](host::ProcessContext& ctx) { ep_.rm_write_v(ctx, dst, remote, src, bytes, notify, value); });
    }

    void rm_read(uint32_t dst, uint32_t remote, uint32_t local, uint32_t bytes, uint32_t lock) {
        perform("rm_read", [&](host::ProcessContext& ctx) { ep_.rm_read(ctx, dst, remote, local, bytes, lock); });
    }

    void wait_word(uint32_t va, uint32_t value) {
        if (!perform("wait_word", [&](host::ProcessContext& ctx) { ep_.wait(ctx, [&] { return ep_.word(va) == value; }); }))
            fail("wait_word: the word at " + std::to_string(va) + " never became " + std::to_string(value) +
                 ", and nothing in the system was left to change it");
    }

    uint64_t interrupts() const { return ep_.translator().interrupts(); }

    py::list poll() {
        perform("poll", [&](host::ProcessContext& ctx) { ep_.poll(ctx); });
        return take();
    }

    py::list wait(size_t count) {
        if (!perform("wait", [&](host::ProcessContext& ctx) { ep_.wait(ctx, [&] { return inbox_.size() >= count; }); }))
            fail("wait: " + std::to_string(count) + " active messages never came (" + std::to_string(inbox_.size()) +
                 " did), and nothing in the system was left to bring more");
        return take();
    }

    py::dict counters() const {
        py::dict d;
        for (const auto& n : grim::Endpoint::counter_names()) d[n.c_str()] = ep_.counter(n.c_str());
        return d;
    }
    uint32_t node() const { return node_; }
    uint32_t lc() const { return ep_.lc(); }
    uint32_t resent() const { return ep_.resent(); }

private:
    struct Arrival {
        uint32_t src;
        std::string handler;
        std::array<uint32_t, 4> args;
        std::string data;
    };
    py::list take() {
        py::list out;
        for (auto& a : inbox_) {
            py::dict d;
            d["src"] = a.src;
            d["handler"] = a.handler;
            d["args"] = std::vector<uint32_t>(a.args.begin(), a.args.end());
            d["data"] = py::bytes(a.data);
            out.append(d);
        }
        inbox_.clear();
        return out;
    }
    [[noreturn]] void fail(const std::string& what) const { throw Error("node " + std::to_string(node_) + " (GRIM): " + what); }
    bool perform(const std::string& what, std::function<void(host::ProcessContext&)> op) {
        return calls_.perform(what, std::move(op), [](const std::string& m) -> void { throw Error(m); });
    }

    system::System& sys_;
    uint32_t node_;
    grim::Endpoint& ep_;
    HostCalls calls_;
    std::vector<Arrival> inbox_;
};

}  // namespace

void bind_grim(py::module_& m) {
    guarded_class<GrimNode>(m, "GrimNode",
                         "A GRIM node's endpoint on one logical channel (seed 004 §4.3-4.5): handler(name), am_send(dst, name, args, data, lc), poll(), "
                         "wait(count), rm_write_p(dst, remote, data, notify, value), malloc_pinned(bytes), pin_pages(bytes), pa(va), "
                         "write(va, data), read(va, bytes), rm_write_v(dst, remote, src, bytes, notify, value), "
                         "rm_read(dst, remote, local, bytes, lock), wait_word(va, value), interrupts(), counters(). Each "
                         "call is a host process.")
        .def(py::init([](system::System& sys, size_t node, uint32_t lc) {
            if (node >= sys.node_count())
                throw py::index_error("node " + std::to_string(node) + ": the system has " + std::to_string(sys.node_count()) + " nodes");
            return std::make_unique<GrimNode>(sys, node, lc);
        }), py::arg("system"), py::arg("node"), py::arg("lc") = 0, py::keep_alive<1, 2>())
        .def_property_readonly("node", &GrimNode::node)
        .def_property_readonly("lc", &GrimNode::lc)
        .def("resent", &GrimNode::resent)
        .def("handler", &GrimNode::handler, py::arg("name"))
        .def("am_send", [](GrimNode& n, uint32_t dst, const std::string& name, const std::vector<uint32_t>& args, const py::bytes& data,
                           uint32_t lc) { n.am_send(dst, name, args, std::string(data), lc); },
             py::arg("dst"), py::arg("name"), py::arg("args"), py::arg("data"), py::arg("lc") = 0)
        .def("rm_write_p", [](GrimNode& n, uint32_t dst, uint64_t remote, const py::bytes& data, uint64_t notify, uint32_t value) {
            n.rm_write_p(dst, remote, std::string(data), notify, value);
        }, py::arg("dst"), py::arg("remote"), py::arg("data"), py::arg("notify"), py::arg("value"))
        .def("malloc_pinned", &GrimNode::malloc_pinned, py::arg("bytes"))
        .def("pin_pages", &GrimNode::pin_pages, py::arg("bytes"))
        .def("pa", &GrimNode::pa, py::arg("va"))
        .def("write", [](GrimNode& n, uint32_t va, const py::bytes& data) { n.write(va, std::string(data)); }, py::arg("va"), py::arg("data"))
        .def("read", &GrimNode::read, py::arg("va"), py::arg("bytes"))
        .def("rm_write_v", &GrimNode::rm_write_v, py::arg("dst"), py::arg("remote"), py::arg("src"), py::arg("bytes"), py::arg("notify"),
             py::arg("value"))
        .def("rm_read", &GrimNode::rm_read, py::arg("dst"), py::arg("remote"), py::arg("local"), py::arg("bytes"), py::arg("lock"))
        .def("wait_word", &GrimNode::wait_word, py::arg("va"), py::arg("value"))
        .def("interrupts", &GrimNode::interrupts)
        .def("poll", &GrimNode::poll)
        .def("wait", &GrimNode::wait, py::arg("count"))
        .def("counters", &GrimNode::counters);
}

}  // namespace niclab::bindings
