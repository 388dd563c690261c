// niclab._niclab.GrimMulticast: a GRIM node's multicast calls (seed 004 §8.1, App. C.6
// Tables C.8-C.9) from Python. Arrivals are active messages: they reach the handlers
// registered through GrimNode (bind_grim.cpp) and are collected by its poll/wait.
// Each call is a host process on the node (host_call.hpp).
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

// Host memory the multicast calls stage payloads in (up to Multicast::kMaxMessage),
// clear of GrimNode's (0x3800_0000) and of the library's reassembly buffers.
constexpr uint64_t kMcStage = grim::Multicast::kReassemblyBase + grim::Multicast::kReassemblyBytes;

class GrimMulticast {
public:
    const system::System& system() const { return sys_; }  // for the thread guard
    GrimMulticast(system::System& sys, size_t node) : sys_(sys), node_(uint32_t(node)), calls_(sys, node_, "grim") {
        grim::multicast(sys, node);  // fails here on another system or firmware
    }

    uint32_t find_tree(const std::string& name) { return mc().find_tree(name); }
    uint32_t subscribe(uint32_t id, uint32_t channels) {
        uint32_t out = id;
        perform("subscribe_multicast", [&](host::ProcessContext& ctx) { out = mc().subscribe(ctx, id, channels); });
        return out;
    }
    uint32_t subscribe_by_name(const std::string& name, uint32_t channels) {
        uint32_t out = 0;
        perform("subscribe_multicast", [&](host::ProcessContext& ctx) { out = mc().subscribe_by_name(ctx, name, channels); });
        return out;
    }
    void unsubscribe(uint32_t id, uint32_t channels) {
        perform("unsubscribe_multicast", [&](host::ProcessContext& ctx) { mc().unsubscribe(ctx, id, channels); });
    }
    void send_mc(uint32_t id, const std::string& handler, const std::vector<uint32_t>& args, const std::string& data) {
        const auto [h, a] = prepare("send_mc", handler, args, data);
        perform("send_mc", [&](host::ProcessContext& ctx) { mc().send_mc(ctx, id, h, a, kMcStage, uint32_t(data.size())); });
    }
    void broadcast(const std::string& handler, const std::vector<uint32_t>& args, const std::string& data) {
        const auto [h, a] = prepare("broadcast", handler, args, data);
        perform("broadcast", [&](host::ProcessContext& ctx) { mc().broadcast(ctx, h, a, kMcStage, uint32_t(data.size())); });
    }
    std::vector<uint32_t> tree(uint32_t id) { return mc().tree_nodes(id); }
    py::dict table(uint32_t id) {
        const grim_mc_tree t = mc().table(id);
        py::dict d;
        d["epoch"] = t.epoch;
        d["member"] = bool(t.member);
        d["root"] = bool(t.root);
        d["channels"] = t.lc_mask;
        d["expected_ticket"] = t.expected;
        std::vector<uint32_t> kids;
        for (uint32_t i = 0; i < t.children && i < 2; ++i) kids.push_back(t.child[i]);
        d["children"] = kids;
        return d;
    }

private:
    grim::Multicast& mc() { return grim::multicast(sys_, node_); }
    std::pair<uint32_t, std::array<uint32_t, 4>> prepare(const char* call, const std::string& handler, const std::vector<uint32_t>& args,
                                                         const std::string& data) {
        if (args.size() > 4) fail(std::string(call) + ": at most four arguments, not " + std::to_string(args.size()));
        grim::Multicast::check_size(call, data.size());  // larger than one message: fragmented (§8.2.3)
        std::array<uint32_t, 4> a{};
        for (size_t i = 0; i < args.size(); ++i) a[i] = args[i];
        const uint32_t h = mc().endpoint().resolve(handler);
        sys_.host_memory(node_).write(kMcStage, {reinterpret_cast<const uint8_t*>(data.data()), data.size()});
        return {h, a};
    }
    [[noreturn]] void fail(const std::string& what) const { throw Error("node " + std::to_string(node_) + " (GRIM): " + what); }
    void perform(const std::string& what, std::function<void(host::ProcessContext&)> op) {
        if (!calls_.perform(what, std::move(op), [](const std::string& m) -> void { throw Error(m); }))
            fail(what + ": never finished, and nothing in the system was left to finish it");
    }

    system::System& sys_;
    uint32_t node_;
    HostCalls calls_;
};

}  // namespace

void bind_grim_mc(py::module_& m) {
    guarded_class<GrimMulticast>(m, "GrimMulticast",
                              "A GRIM node's multicast calls (seed 004 §8.1, Tables C.8-C.9): find_tree(name), subscribe(id, channels), "
                              "subscribe_by_name(name, channels), unsubscribe(id, channels), send_mc(id, handler, args, data), "
                              "broadcast(handler, args, data), tree(id), table(id). Each call is a host process.")
        .def(py::init([](system::System& sys, size_t node) {
            if (node >= sys.node_count())
                throw py::index_error("node " + std::to_string(node) + ": the system has " + std::to_string(sys.node_count()) + " nodes");
            return std::make_unique<GrimMulticast>(sys, node);
        }), py::arg("system"), py::arg("node"), py::keep_alive<1, 2>())
        .def("find_tree", &GrimMulticast::find_tree, py::arg("name"))
        .def("subscribe", &GrimMulticast::subscribe, py::arg("id"), py::arg("channels"))
        .def("subscribe_by_name", &GrimMulticast::subscribe_by_name, py::arg("name"), py::arg("channels"))
        .def("unsubscribe", &GrimMulticast::unsubscribe, py::arg("id"), py::arg("channels"))
        .def("send_mc", [](GrimMulticast& g, uint32_t id, const std::string& h, const std::vector<uint32_t>& args, const py::bytes& data) {
            g.send_mc(id, h, args, std::string(data));
        }, py::arg("id"), py::arg("handler"), py::arg("args"), py::arg("data"))
        .def("broadcast", [](GrimMulticast& g, const std::string& h, const std::vector<uint32_t>& args, const py::bytes& data) {
            g.broadcast(h, args, std::string(data));
        }, py::arg("handler"), py::arg("args"), py::arg("data"))
        .def("tree", &GrimMulticast::tree, py::arg("id"))
        .def("table", &GrimMulticast::table, py::arg("id"));
}

}  // namespace niclab::bindings
