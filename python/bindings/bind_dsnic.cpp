// niclab._niclab.CspNode: a DSNIC node's CSP library (seed 003 §5, Table 1) driven from
// Python. Each call is a host process on the node making the driver's system calls
// (host_call.hpp): a blocking send returns once the receiver acknowledged the whole
// message, a receive once a message is in the channel's buffer (the receiving node's
// interrupt handler does the packet work meanwhile, with nothing asked of Python).
//
// Channels are virtual links (L528): (peer, vl), opened at both ends. Each has its own
// buffers in the node's host memory: the receive buffer the driver posts (whole packets,
// so flush's padding stays inside), and a send region that non-blocking sends fill one
// after the other until their channel's sends are all done (the caller's memory must
// stay untouched until then, L534).
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "system_guard.hpp"
#include "host_call.hpp"
#include "niclab/systems/dsnic/csp.hpp"
#include "niclab/systems/dsnic/model.hpp"
#include "niclab/systems/dsnic/wire.hpp"

namespace py = pybind11;
using namespace niclab::dsnic;

namespace niclab::bindings {

namespace {

// Host memory of the Python API's channels, clear of the experiments' transports
// (0x1000'0000 and up, 0x8000'0000 and up): 16 MB each way per (peer, vl).
constexpr uint64_t kRegion = 16ull << 20;
constexpr uint64_t kSendBase = 0x40'0000'0000ull, kRecvBase = 0x80'0000'0000ull;

class CspNode {
public:
    const system::System& system() const { return sys_; }  // for the thread guard
    CspNode(system::System& sys, size_t node)
        : sys_(sys), node_(uint32_t(node)), driver_(dsnic::driver(sys, node)), calls_(sys, node_, "csp") {}

    void open(uint32_t peer, uint32_t vl, uint64_t capacity) {
        if (peer >= sys_.node_count() || peer == node_)
            fail("open: peer " + std::to_string(peer) + " is not another node of the " +
                 std::to_string(sys_.node_count()) + "-node system");
        if (vl >= kVirtualLinks) fail("open: virtual link " + std::to_string(vl) + " (there are " + std::to_string(kVirtualLinks) + ")");
        if (capacity == 0 || capacity > kRegion)
            fail("open: a receive buffer of " + std::to_string(capacity) + " B (1 B to 16 MB)");
        Slot& s = slots_[{peer, vl}];
        if (s.ch) fail("open: virtual link " + std::to_string(vl) + " to node " + std::to_string(peer) + " is open already");
        const uint64_t rx = region(kRecvBase, peer, vl);
        perform("open", [&](host::ProcessContext& ctx) { s.ch.emplace(CspChannel::open(ctx, driver_, uint8_t(vl), peer, rx, capacity)); });
    }

    py::dict send(uint32_t peer, uint32_t vl, const std::string& data, const std::string& mode, uint32_t tag) {
        Slot& s = slot(peer, vl, "send");
        if (mode != "sync" && mode != "async" && mode != "buffered")
            fail("send: mode '" + mode + "' (sync: blocking, async: non-blocking until wait(), buffered: copied into the kernel)");
        if (s.ch->sends_done()) s.used = 0;
        if (s.used + data.size() > kRegion)
            fail("send: " + std::to_string(data.size()) + " B more than the channel's 16 MB send region holds with its "
                 "non-blocking sends in flight: wait() first");
        const uint64_t addr = region(kSendBase, peer, vl) + s.used;
        sys_.host_memory(node_).write(addr, {reinterpret_cast<const uint8_t*>(data.data()), data.size()});
        s.used += (data.size() + 63) / 64 * 64;
        const bool done = perform("send", [&](host::ProcessContext& ctx) {
            if (mode == "sync") s.ch->send(ctx, addr, data.size(), tag);
            else if (mode == "async") s.ch->isend(ctx, addr, data.size(), tag);
            else s.ch->bsend(ctx, addr, data.size(), tag);
        });
        if (!done) fail("send to node " + std::to_string(peer) + " never finished: nothing in the system was left to "
                        "acknowledge it (has the receiver opened virtual link " + std::to_string(vl) + "?)");
        return timing();
    }

    py::dict wait(uint32_t peer, uint32_t vl) {
        Slot& s = slot(peer, vl, "wait");
        if (!perform("wait", [&](host::ProcessContext& ctx) { s.ch->wait(ctx); }))
            fail("wait: the sends to node " + std::to_string(peer) + " were never acknowledged and nothing in the "
                 "system was left to do it");
        return timing();
    }

    py::dict recv(uint32_t peer, uint32_t vl) {
        Slot& s = slot(peer, vl, "recv");
        std::optional<std::pair<Message, std::string>> got;
        const bool done = perform("recv", [&](host::ProcessContext& ctx) {
            const Message m = s.ch->recv(ctx);
            // Read at once: the buffer is posted again and the next message may come.
            std::string out(m.bytes, '\0');
            sys_.host_memory(node_).read(s.ch->rx_addr(), {reinterpret_cast<uint8_t*>(out.data()), out.size()});
            got.emplace(m, std::move(out));
        });
        if (!done || !got)
            fail("recv from node " + std::to_string(peer) + " on virtual link " + std::to_string(vl) +
                 ": no message arrived, and nothing in the system was left to bring one");
        py::dict d = timing();
        d["data"] = py::bytes(got->second);
        d["bytes"] = got->first.bytes;
        d["tag"] = got->first.tag;
        return d;
    }

    bool probe(uint32_t peer, uint32_t vl) {
        Slot& s = slot(peer, vl, "probe");
        bool ready = false;
        perform("probe", [&](host::ProcessContext& ctx) { ready = s.ch->probe(ctx); });
        return ready;
    }

    size_t alt(const std::vector<std::pair<uint32_t, uint32_t>>& channels) {
        if (channels.empty()) fail("alt: no channels to select from");
        std::vector<CspChannel*> chs;
        for (const auto& [peer, vl] : channels) chs.push_back(&*slot(peer, vl, "alt").ch);
        size_t index = 0;
        if (!perform("alt", [&](host::ProcessContext& ctx) { index = CspChannel::alt(ctx, driver_, chs); }))
            fail("alt: none of the channels got a message, and nothing in the system was left to bring one");
        return index;
    }

    uint32_t node() const { return node_; }
    py::dict timing() const {
        const CallState& s = calls_.last();
        py::dict d;
        d["start_us"] = s.started.as_us();
        d["end_us"] = s.ended.as_us();
        d["host_us"] = (s.ended - s.started).as_us();
        return d;
    }

private:
    struct Slot {
        std::optional<CspChannel> ch;
        uint64_t used = 0;  // of the send region, by sends not yet all done
    };
    [[noreturn]] void fail(const std::string& what) const {
        throw DsnicError("node " + std::to_string(node_) + " (CSP): " + what);
    }
    Slot& slot(uint32_t peer, uint32_t vl, const char* call) {
        auto it = slots_.find({peer, vl});
        if (it == slots_.end() || !it->second.ch)
            fail(std::string(call) + ": virtual link " + std::to_string(vl) + " to node " + std::to_string(peer) +
                 " is not open (open(peer, vl) first)");
        return it->second;
    }
    static uint64_t region(uint64_t base, uint32_t peer, uint32_t vl) { return base + (uint64_t(peer) * kVirtualLinks + vl) * kRegion; }
    bool perform(const std::string& what, std::function<void(host::ProcessContext&)> op) {
        return calls_.perform(what, std::move(op), [](const std::string& m) -> void { throw DsnicError(m); });
    }

    system::System& sys_;
    uint32_t node_;
    Driver& driver_;
    HostCalls calls_;
    std::map<std::pair<uint32_t, uint32_t>, Slot> slots_;
};

}  // namespace

void bind_dsnic(py::module_& m) {
    guarded_class<CspNode>(m, "CspNode",
                        "A DSNIC node's CSP channels (seed 003 Table 1): open(peer, vl, capacity), send(peer, vl, data, "
                        "mode, tag), wait(peer, vl), recv(peer, vl), probe(peer, vl), alt([(peer, vl), ...]). Each call is "
                        "a host process making the driver's system calls while the simulation runs.")
        .def(py::init([](system::System& sys, size_t node) {
            if (node >= sys.node_count())
                throw py::index_error("node " + std::to_string(node) + ": the system has " + std::to_string(sys.node_count()) + " nodes");
            return std::make_unique<CspNode>(sys, node);
        }), py::arg("system"), py::arg("node"), py::keep_alive<1, 2>())
        .def_property_readonly("node", &CspNode::node)
        .def_property_readonly("last_call", &CspNode::timing, "start_us, end_us, host_us of the last call")
        .def("open", &CspNode::open, py::arg("peer"), py::arg("vl"), py::arg("capacity"))
        .def("send", [](CspNode& n, uint32_t peer, uint32_t vl, const py::bytes& data, const std::string& mode, uint32_t tag) {
            return n.send(peer, vl, std::string(data), mode, tag);
        }, py::arg("peer"), py::arg("vl"), py::arg("data"), py::arg("mode"), py::arg("tag"))
        .def("wait", &CspNode::wait, py::arg("peer"), py::arg("vl"))
        .def("recv", &CspNode::recv, py::arg("peer"), py::arg("vl"))
        .def("probe", &CspNode::probe, py::arg("peer"), py::arg("vl"))
        .def("alt", &CspNode::alt, py::arg("channels"));
}

}  // namespace niclab::bindings
