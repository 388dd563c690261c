#include "model/transport_injection.hpp"

#include <algorithm>
#include <optional>

#include "model/input_error.hpp"
#include "model/run_processes.hpp"
#include "niclab/host/process.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::gui {

TransportInjection::TransportInjection(system::System& sys) : sys_(sys) {}
TransportInjection::~TransportInjection() = default;

TransportInjection::Pair& TransportInjection::pair(const std::string& transport, size_t sender, size_t receiver) {
    Pair& p = pairs_[{transport, sender, receiver}];
    if (!p.send) {
        p.send = sys_.model().open_transport(sys_, uint32_t(sender), uint32_t(receiver), transport, kSeed);
        p.recv = sys_.model().open_transport(sys_, uint32_t(receiver), uint32_t(sender), transport, kSeed);
    }
    return p;
}

InjectionOutcome TransportInjection::inject(const TransportMessage& m) {
    const size_t n = sys_.node_count();
    check_node("sender node", m.sender, n);
    check_node("receiver node", m.receiver, n);
    if (m.sender == m.receiver) throw InputError("sender and receiver: a transport joins two different nodes");
    const auto infos = sys_.model().transports();
    const msg::TransportInfo* info = nullptr;
    for (const auto& t : infos)
        if (t.name == m.transport || (m.transport.empty() && &t == &infos.front())) info = &t;
    if (!info) throw InputError("transport '" + m.transport + "': the " + sys_.model().name() + " has no such host library");
    const uint64_t max = std::min(info->max_message, kMaxBytes);
    if (m.bytes == 0 || m.bytes > max)
        throw InputError("message size " + std::to_string(m.bytes) + ": transport '" + info->name + "' takes 1 to " +
                         std::to_string(max) + " B here");

    Pair& p = pair(info->name, m.sender, m.receiver);
    msg::Transport& tx = *p.send;
    msg::Transport& rx = *p.recv;
    if (!p.open) {
        // Both ends set up their buffers for the largest message once.
        host::Process a(sys_.host_cpu(m.sender), "inject-open", [&](host::ProcessContext& ctx) { tx.open(ctx, max); });
        host::Process b(sys_.host_cpu(m.receiver), "inject-open", [&](host::ProcessContext& ctx) { rx.open(ctx, max); });
        run_until_done(sys_, {&a, &b}, kPatience);
        a.rethrow_if_failed();
        b.rethrow_if_failed();
        if (!a.done() || !b.done()) throw msg::TransportError("transport '" + info->name + "' did not open in " +
                                                             std::to_string(kPatience.as_us()) + " us");
        p.open = true;
    }

    InjectionOutcome out;
    Time sent{}, left{}, arrived{};
    std::optional<msg::Received> got;
    host::Process receiver(sys_.host_cpu(m.receiver), "inject-recv", [&](host::ProcessContext& ctx) {
        got = rx.recv(ctx);  // checked byte for byte against the sender's pattern
        arrived = ctx.now();
    });
    host::Process sender(sys_.host_cpu(m.sender), "inject-send", [&](host::ProcessContext& ctx) {
        tx.prepare_send(ctx, m.bytes);
        sent = ctx.now();
        tx.send(ctx, m.tag);
        tx.wait_sends(ctx);
        left = ctx.now();
    });
    run_until_done(sys_, {&sender, &receiver}, kPatience);
    sender.rethrow_if_failed();
    receiver.rethrow_if_failed();  // a TransportError naming the byte that arrived changed

    if (sender.done()) {
        out.events.push_back({m.sender, "sender", "SEND", sent, m.bytes, m.bytes, 0, m.tag, false});
        out.events.push_back({m.sender, "sender", "SEND_DONE (buffer free)", left, m.bytes, m.bytes, 0, m.tag, false});
    }
    if (got) out.events.push_back({m.receiver, "receiver", "RECV (checked)", arrived, got->bytes, got->bytes, 0, got->tag, false});
    std::stable_sort(out.events.begin(), out.events.end(), [](const auto& a, const auto& b) { return a.time < b.time; });
    out.complete = sender.done() && got.has_value();
    out.bytes_expected = m.bytes;
    out.bytes_matching = got && got->bytes == m.bytes && got->tag == m.tag ? m.bytes : 0;
    out.summary = info->name + " message of " + std::to_string(m.bytes) + " B, node " + std::to_string(m.sender) +
                  " → node " + std::to_string(m.receiver) + ", tag " + std::to_string(m.tag) +
                  (got ? ": arrived after " + std::to_string((arrived - sent).as_us()) + " us" : ": did not arrive") +
                  (out.complete ? "" : " (incomplete)");
    return out;
}

}  // namespace niclab::gui
