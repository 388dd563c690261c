// niclab._niclab.JamNode: a StarT-X node's JAM library (and JAM RPC) driven from Python.
// Every call is performed by a fresh host process on the node, with the costs JAM pays
// (PIO loads and stores on the PCI bus, driver calls, polling), and the system runs —
// with the GIL released — until that process has finished. A call that waits for
// something (a message, a filled RDMA window) and finds the whole system idle with its
// process still waiting has waited for something that will not come: the process is
// ended and the call reports it.
//
// Errors: the StarT-X's typed errors (MessageFormatError, UnknownPriorityError,
// QueueOverflowError, EmptyQueueError, RdmaError, DriverError) come out of the call; the
// System and the Python process stay usable. An error raised by the hardware while the
// system ran (an RDMA message arriving at a node that opened no window) may leave the
// caller's process mid-operation: it is kept, not destroyed (it may hold a PCI read in
// flight), and lives until the node's JamNode goes.
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "system_guard.hpp"
#include "host_call.hpp"
#include "niclab/host/process.hpp"
#include "niclab/system/system.hpp"
#include "niclab/systems/startx/model.hpp"

namespace py = pybind11;
using namespace niclab::startx;

namespace niclab::bindings {

namespace {

std::string node_name(uint32_t node) { return "node " + std::to_string(node) + ": "; }

struct ReceivedMessage {
    JamMessage m;
    std::string payload;
    Time at;
};

struct RpcRecord {
    RpcCall call;
    std::string data;
    Time at;
};

py::dict message_dict(const ReceivedMessage& r) {
    py::dict d;
    d["source"] = r.m.word.sender;
    d["dst"] = r.m.header.down_route;
    d["priority"] = to_string(r.m.header.priority);
    d["random_up"] = r.m.header.random_up;
    d["up_route"] = r.m.header.up_route;
    d["word1"] = r.m.word.pack();
    d["payload"] = py::bytes(r.payload);
    d["payload_words"] = r.m.payload_words;
    d["address"] = r.m.payload_addr;
    d["time_us"] = r.at.as_us();
    return d;
}

py::dict status_dict(const Status& s, uint64_t at_ps) {
    py::dict d;
    d["tx_space_high"] = s.tx_space[0];
    d["tx_space_low"] = s.tx_space[1];
    d["rx_high"] = s.rx_count[0];
    d["rx_low"] = s.rx_count[1];
    d["tx_dma_busy"] = s.tx_dma_busy;
    d["vi_rx_armed"] = s.vi_rx_armed;
    d["vi_rx_exhausted"] = s.vi_rx_exhausted;
    d["rdma_window_open"] = s.rdma_window_open;
    d["rdma_window_done"] = s.rdma_window_done;
    d["rdma_tx_active"] = s.rdma_tx_active;
    d["word"] = s.pack();
    d["time_us"] = Time::ps(int64_t(at_ps)).as_us();
    return d;
}

class JamNode {
public:
    const system::System& system() const { return sys_; }  // for the thread guard
    JamNode(system::System& sys, size_t node)
        : sys_(sys), node_(uint32_t(node)), jam_(startx::jam(sys, node)), rpc_(startx::jam_rpc(sys, node)) {
        tx_ = jam_.allocate(kMaxBytes, 64);
        rx_ = jam_.allocate(kMaxBytes, 64);
        tx64_ = jam_.allocate(64, 64);
        rx64_ = jam_.allocate(64, 64);
        for (uint32_t h = 0; h < JamRpc::kHandlers; ++h)
            rpc_.set_handler(h, [this](host::ProcessContext& ctx, const RpcCall& c) {
                std::string data(c.bytes, '\0');
                jam_.memory().read(c.addr, {reinterpret_cast<uint8_t*>(data.data()), data.size()});
                rpc_calls_.push_back({c, std::move(data), ctx.now()});
            });
    }
    uint32_t node() const { return node_; }
    Jam& jam() { return jam_; }
    const CallState& last() const { return calls_.last(); }

    bool perform(const std::string& what, std::function<void(host::ProcessContext&)> op) {
        return calls_.perform(what, std::move(op), [](const std::string& m) -> void { throw StartxError(m); });
    }

    void check_dst(uint32_t dst) const {
        if (dst >= sys_.node_count())
            throw MessageFormatError(node_name(node_) + "destination node " + std::to_string(dst) + ": the system has " +
                                     std::to_string(sys_.node_count()) + " nodes");
    }

    Priority check_send(uint32_t dst, int priority, size_t bytes) {
        const Priority p = priority_from_int(priority);
        check_dst(dst);
        if (bytes % 4)
            throw MessageFormatError(node_name(node_) + "a payload of " + std::to_string(bytes) +
                                     " bytes: StarT-X payloads are whole 32-bit words (8 to 88 bytes)");
        // As for RDMA (rdma_send): refused here, before the receiving NIU would stop the
        // simulation with it.
        if (p == Priority::high && dst != node_ && startx::jam(sys_, dst).niu().rdma_window_open())
            throw RdmaError(node_name(node_) + "a high-priority message to node " + std::to_string(dst) +
                            ", which has an RDMA window open (RDMA cannot coexist with other high-priority traffic, "
                            "seed 002 §5.3)");
        return p;
    }

    uint32_t word1_or_default(std::optional<uint32_t> word1) const {
        if (word1) return *word1;
        JamWord w;
        w.sender = node_;
        w.first = w.last = true;
        return w.pack();
    }

    void write(uint64_t addr, const std::string& data) {
        jam_.memory().write(addr, {reinterpret_cast<const uint8_t*>(data.data()), data.size()});
    }
    std::string read(uint64_t addr, uint64_t n) {
        std::string out(n, '\0');
        jam_.memory().read(addr, {reinterpret_cast<uint8_t*>(out.data()), out.size()});
        return out;
    }

    // Host memory for a region of at least `bytes` (kept and reused while large enough).
    uint64_t region(uint64_t& base, uint64_t& size, uint64_t bytes) {
        if (bytes > size) {
            base = jam_.allocate(bytes, 64);
            size = bytes;
        }
        return base;
    }

    system::System& sys_;
    uint32_t node_;
    Jam& jam_;
    JamRpc& rpc_;
    uint64_t tx_ = 0, rx_ = 0, tx64_ = 0, rx64_ = 0;
    uint64_t rdma_base_ = 0, rdma_size_ = 0, vi_tx_base_ = 0, vi_tx_size_ = 0;
    uint64_t window_base_ = 0, window_size_ = 0;
    uint32_t window_sender_ = 0;
    std::deque<RpcRecord> rpc_calls_;

private:
    HostCalls calls_{sys_, node_, "jam"};
};

py::dict timing(const CallState& s) {
    py::dict d;
    d["start_us"] = s.started.as_us();
    d["end_us"] = s.ended.as_us();
    d["host_us"] = (s.ended - s.started).as_us();
    return d;
}

ReceivedMessage finish_receive(JamNode& n, const JamMessage& m, Time at) {
    return {m, n.read(m.payload_addr, uint64_t(m.payload_words) * 4), at};
}

EmptyQueueError nothing_came(const JamNode& n, const std::string& where, bool waited) {
    return EmptyQueueError(node_name(n.node()) + where + (waited ? ": no message arrived, and nothing in the system was "
                                                                   "left to bring one"
                                                                 : ": no message waits (status word read)"));
}

// A PIO send (`op`) of the message in the buffer at `buf`; QueueOverflowError when the
// transmit queue stayed full with nothing left to drain it.
py::dict pio_send(JamNode& n, const std::string& what, Priority p, uint64_t buf,
                  std::function<void(host::ProcessContext&)> op) {
    if (!n.perform(what, std::move(op)))
        throw QueueOverflowError(node_name(n.node()) + what + ": the " + to_string(p) +
                                 "-priority transmit queue stayed full and nothing in the system was left to drain it");
    py::dict d = timing(n.last());
    d["address"] = buf;
    return d;
}

// The next message of a receive queue by the generalized (ldd) or the 64-byte (ldda)
// primitive; with `wait`, JAM polls until one arrives.
py::dict pio_receive(JamNode& n, int priority, bool wait, bool wide) {
    const Priority p = priority_from_int(priority);
    auto got = std::make_shared<std::optional<ReceivedMessage>>();
    const uint64_t buf = wide ? n.rx64_ : n.rx_;
    const std::string what = wide ? "receive64" : "receive";
    const bool finished = n.perform(what, [&n, p, buf, wait, wide, got](host::ProcessContext& ctx) {
        Jam& jam = n.jam();
        JamMessage m;
        if (wait) m = wide ? jam.receive64(ctx, p, buf) : jam.receive(ctx, p, buf);
        else if (!(wide ? jam.try_receive64(ctx, p, buf, m) : jam.try_receive(ctx, p, buf, m))) return;
        *got = finish_receive(n, m, ctx.now());
    });
    if (!finished || !*got) throw nothing_came(n, what + " from the " + to_string(p) + "-priority queue", wait);
    return message_dict(**got);
}

}  // namespace

void bind_startx(py::module_& m) {
    guarded_class<JamNode>(m, "JamNode")
        .def(py::init([](system::System& sys, size_t node) {
            if (node >= sys.node_count())
                throw py::index_error("node " + std::to_string(node) + ": the system has " +
                                      std::to_string(sys.node_count()) + " nodes");
            return std::make_unique<JamNode>(sys, node);
        }), py::arg("system"), py::arg("node"), py::keep_alive<1, 2>())
        .def_property_readonly("node", &JamNode::node)
        .def_property_readonly("max_payload_bytes", [](JamNode&) { return kMaxPayloadWords * 4; })
        .def_property_readonly("last_call", [](JamNode& n) { return timing(n.last()); })

        // --- PIO, generalized primitives (ldd/std)
        .def("send", [](JamNode& n, uint32_t dst, const py::bytes& payload, int priority, bool random_up,
                        std::optional<uint32_t> word1) {
            std::string data = payload;
            const Priority p = n.check_send(dst, priority, data.size());
            const uint32_t w1 = n.word1_or_default(word1);
            n.jam().header(dst, p, uint32_t(data.size() / 4), random_up);  // MessageFormatError before any time passes
            n.write(n.tx_, data);
            const uint64_t buf = n.tx_;
            const auto words = uint32_t(data.size() / 4);
            return pio_send(n, "send", p, buf, [&n, dst, p, w1, buf, words, random_up](host::ProcessContext& ctx) {
                n.jam().send(ctx, dst, p, w1, buf, words, random_up);
            });
        }, py::arg("dst"), py::arg("payload"), py::arg("priority"), py::arg("random_up"), py::arg("word1"))
        .def("receive", [](JamNode& n, int priority, bool wait) { return pio_receive(n, priority, wait, false); },
             py::arg("priority"), py::arg("wait"))

        // --- PIO, 64-byte primitives (ldda/stda)
        .def("send64", [](JamNode& n, uint32_t dst, const py::bytes& payload, int priority, bool random_up,
                          std::optional<uint32_t> word1) {
            std::string data = payload;
            const Priority p = n.check_send(dst, priority, data.size());
            if (data.size() != 56)
                throw MessageFormatError(node_name(n.node()) + "send64 of a " + std::to_string(data.size()) +
                                         "-byte payload: the 64-byte primitive moves a 16-word message, 56 payload bytes");
            const uint32_t w1 = n.word1_or_default(word1);
            const uint64_t msg = n.tx64_;
            n.write(msg + 8, data);
            return pio_send(n, "send64", p, msg, [&n, dst, p, w1, msg, random_up](host::ProcessContext& ctx) {
                n.jam().format64(ctx, msg, dst, p, w1, random_up);
                n.jam().send64(ctx, p, msg);
            });
        }, py::arg("dst"), py::arg("payload"), py::arg("priority"), py::arg("random_up"), py::arg("word1"))
        .def("receive64", [](JamNode& n, int priority, bool wait) { return pio_receive(n, priority, wait, true); },
             py::arg("priority"), py::arg("wait"))

        // --- the status word
        .def("status", [](JamNode& n) {
            auto s = std::make_shared<std::pair<Status, Time>>();
            n.perform("status", [&n, s](host::ProcessContext& ctx) {
                s->first = n.jam().read_status(ctx);
                s->second = ctx.now();
            });
            return status_dict(s->first, uint64_t(s->second.ps()));
        })

        // --- VI
        .def("vi_arm", [](JamNode& n, uint64_t size, std::optional<uint64_t> base) {
            const uint64_t at = base ? *base : n.jam().allocate(size, 64);
            n.perform("vi_arm", [&n, at, size](host::ProcessContext& ctx) {
                n.jam().vi_arm_receive(ctx, at, size);
                n.jam().read_status(ctx);  // the read flushes the posted stores: armed on return
            });
            return at;
        }, py::arg("size"), py::arg("base"))
        .def("vi_receive", [](JamNode& n, bool wait) -> py::object {
            if (!n.jam().vi_armed())
                throw DriverError(node_name(n.node()) + "VI receive is not armed (vi_arm first)");
            auto got = std::make_shared<std::optional<ReceivedMessage>>();
            const bool finished = n.perform("vi_receive", [&n, wait, got](host::ProcessContext& ctx) {
                JamMessage m;
                if (wait) m = n.jam().vi_wait(ctx);
                else if (!n.jam().vi_peek(ctx, m)) return;
                *got = finish_receive(n, m, ctx.now());
                n.jam().vi_consume(ctx);
            });
            if (!finished && wait)
                throw nothing_came(n, "VI receive", true);
            if (!*got) return py::none();
            return message_dict(**got);
        }, py::arg("wait"))
        .def("vi_send", [](JamNode& n, uint32_t dst, const std::vector<py::bytes>& payloads, std::optional<uint32_t> word1) {
            if (payloads.empty()) throw DriverError(node_name(n.node()) + "vi_send of no messages");
            const uint32_t w1 = n.word1_or_default(word1);
            std::string batch;
            for (const auto& pb : payloads) {
                std::string data = pb;
                n.check_send(dst, 0, data.size());
                const uint32_t h0 = n.jam().header(dst, Priority::high, uint32_t(data.size() / 4));
                for (uint32_t w : {h0, w1})
                    for (int b = 0; b < 4; ++b) batch.push_back(char(uint8_t(w >> (8 * b))));
                batch += data;
            }
            const uint64_t at = n.region(n.vi_tx_base_, n.vi_tx_size_, batch.size());
            n.write(at, batch);
            const uint64_t bytes = batch.size();
            const auto count = uint64_t(payloads.size());
            n.perform("vi_send", [&n, at, bytes, count](host::ProcessContext& ctx) {
                // The user's cached stores composing the batch, then the driver call.
                n.jam().charge(ctx, count * n.jam().params().call_cycles + n.jam().params().word_cycles * ((bytes + 7) / 8));
                n.jam().vi_transmit(ctx, at, bytes);
                n.jam().wait_tx_dma(ctx);
            });
            py::dict d = timing(n.last());
            d["address"] = at;
            d["bytes"] = bytes;
            return d;
        }, py::arg("dst"), py::arg("payloads"), py::arg("word1"))

        // --- RDMA
        .def("open_window", [](JamNode& n, uint64_t size, uint32_t sender, std::optional<uint64_t> base) {
            if (sender >= n.sys_.node_count())
                throw RdmaError(node_name(n.node()) + "an RDMA window for node " + std::to_string(sender) +
                                ": the system has " + std::to_string(n.sys_.node_count()) + " nodes");
            const uint64_t at = base ? *base : n.jam().allocate(size, 64);
            n.perform("open_window", [&n, at, size, sender](host::ProcessContext& ctx) {
                n.jam().rdma_open_window(ctx, at, size, sender);
                n.jam().read_status(ctx);  // the read flushes the posted stores: open on return
            });
            n.window_base_ = at;
            n.window_size_ = size;
            n.window_sender_ = sender;
            return at;
        }, py::arg("size"), py::arg("sender"), py::arg("base"))
        .def("rdma_send", [](JamNode& n, uint32_t dst, const py::bytes& data, std::optional<uint32_t> word1) {
            std::string bytes = data;
            n.check_dst(dst);
            if (bytes.empty()) throw DriverError(node_name(n.node()) + "an RDMA transfer of 0 bytes");
            // Python calls run one at a time, so the receiver's window cannot change while
            // this one runs: a transfer it has no room for is refused here, before the
            // receiving NIU would find it (002 §5.3) and stop the simulation with it.
            Niu& rx = startx::jam(n.sys_, dst).niu();
            const std::string to = node_name(n.node()) + "RDMA of " + std::to_string(bytes.size()) + " bytes to node " +
                                   std::to_string(dst) + ": ";
            if (!rx.rdma_window_open())
                throw RdmaError(to + "its driver opened no RDMA window");
            if (rx.rdma_window_sender() != n.node())
                throw RdmaError(to + "its RDMA window is opened for node " + std::to_string(rx.rdma_window_sender()));
            if (rx.rdma_window_size() - rx.rdma_received() < bytes.size())
                throw RdmaError(to + "its RDMA window has room for " +
                                std::to_string(rx.rdma_window_size() - rx.rdma_received()) + " more bytes");
            const uint32_t w1 = n.word1_or_default(word1);
            const uint64_t at = n.region(n.rdma_base_, n.rdma_size_, bytes.size());
            n.write(at, bytes);
            const uint64_t size = bytes.size();
            n.perform("rdma_send", [&n, dst, w1, at, size](host::ProcessContext& ctx) {
                n.jam().rdma_headers(ctx, dst, w1);
                n.jam().rdma_transmit(ctx, at, size);
                n.jam().wait_tx_dma(ctx);
            });
            py::dict d = timing(n.last());
            d["address"] = at;
            d["bytes"] = size;
            return d;
        }, py::arg("dst"), py::arg("data"), py::arg("word1"))
        .def("rdma_wait", [](JamNode& n) {
            if (n.window_size_ == 0)
                throw RdmaError(node_name(n.node()) + "rdma_wait without an RDMA window (open_window first)");
            Niu& niu = n.jam().niu();
            if (!n.perform("rdma_wait", [&n](host::ProcessContext& ctx) { n.jam().rdma_wait_window(ctx); }))
                throw RdmaError(node_name(n.node()) + "the RDMA window of " + std::to_string(n.window_size_) +
                                " bytes for node " + std::to_string(n.window_sender_) + " received " +
                                std::to_string(niu.rdma_received()) + " bytes, and nothing in the system was left "
                                "to bring the rest");
            py::dict d = timing(n.last());
            d["address"] = n.window_base_;
            d["data"] = py::bytes(n.read(n.window_base_, n.window_size_));
            d["sender"] = n.window_sender_;
            n.window_size_ = 0;
            return d;
        })

        // --- JAM RPC
        .def("rpc", [](JamNode& n, uint32_t dst, uint32_t handler, const py::bytes& data, uint64_t tag) {
            std::string bytes = data;
            n.check_dst(dst);
            if (handler >= JamRpc::kHandlers)
                throw DriverError(node_name(n.node()) + "JAM RPC handler " + std::to_string(handler) + " (0..255)");
            const uint64_t at = n.region(n.rdma_base_, n.rdma_size_, std::max<uint64_t>(bytes.size(), 8));
            n.write(at, bytes);
            const uint64_t size = bytes.size();
            n.perform("rpc", [&n, dst, handler, at, size, tag](host::ProcessContext& ctx) {
                n.rpc_.call(ctx, dst, handler, at, size, tag);
            });
            py::dict d = timing(n.last());
            d["path"] = size <= n.rpc_.params().pio_max_bytes ? "pio" : "rdma";
            return d;
        }, py::arg("dst"), py::arg("handler"), py::arg("data"), py::arg("tag"))
        .def("rpc_poll", [](JamNode& n, bool wait) {
            auto did = std::make_shared<uint32_t>(0);
            n.perform("rpc_poll", [&n, wait, did](host::ProcessContext& ctx) {
                if (wait) n.rpc_.wait(ctx);
                *did = n.rpc_.poll(ctx);
            });
            py::list calls;
            while (!n.rpc_calls_.empty()) {
                const RpcRecord& r = n.rpc_calls_.front();
                py::dict c;
                c["source"] = r.call.src;
                c["handler"] = r.call.handler;
                c["tag"] = r.call.tag;
                c["data"] = py::bytes(r.data);
                c["address"] = r.call.addr;
                c["time_us"] = r.at.as_us();
                calls.append(c);
                n.rpc_calls_.pop_front();
            }
            py::dict d = timing(n.last());
            d["did"] = *did;
            d["calls"] = calls;
            d["idle"] = n.rpc_.idle();
            return d;
        }, py::arg("wait"))

        // --- counters
        .def("counters", [](JamNode& n) {
            const Jam::Counters& j = n.jam().counters();
            const NiuCounters& c = n.jam().niu().counters();
            py::dict jam, niu;
            jam["status_reads"] = j.status_reads;
            jam["messages_sent"] = j.messages_sent;
            jam["messages_received"] = j.messages_received;
            jam["driver_calls"] = j.driver_calls;
            jam["blocked_polls"] = j.blocked_polls;
            auto pair = [](const std::array<uint64_t, kPriorities>& a) {
                py::dict d;
                d["high"] = a[0];
                d["low"] = a[1];
                return d;
            };
            niu["messages_launched"] = pair(c.messages_launched);
            niu["messages_injected"] = pair(c.messages_injected);
            niu["messages_accepted"] = pair(c.messages_accepted);
            niu["messages_refused"] = pair(c.messages_refused);
            niu["crc_errors"] = c.crc_errors;
            niu["words_written"] = c.words_written;
            niu["words_read"] = c.words_read;
            niu["status_reads"] = c.status_reads;
            niu["vi_messages_sent"] = c.vi_messages_sent;
            niu["vi_messages_received"] = c.vi_messages_received;
            niu["rdma_bytes_sent"] = c.rdma_bytes_sent;
            niu["rdma_bytes_received"] = c.rdma_bytes_received;
            niu["interrupts"] = c.interrupts;
            py::dict d;
            d["jam"] = jam;
            d["niu"] = niu;
            return d;
        });
}

}  // namespace niclab::bindings
