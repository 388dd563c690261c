#include "model/grim_injection.hpp"

#include <algorithm>
#include <functional>

#include "model/host_bytes.hpp"
#include "model/input_error.hpp"
#include "model/pattern_payload.hpp"
#include "model/run_processes.hpp"
#include "niclab/fw/grim_fw.h"
#include "niclab/system/system_model.hpp"
#include "niclab/systems/grim/grim.hpp"

namespace niclab::gui {

const char* to_string(GrimMessage::Op op) {
    switch (op) {
        case GrimMessage::Op::am: return "active message";
        case GrimMessage::Op::rm_p: return "RM-P write";
        case GrimMessage::Op::rm_v: return "RM-V write";
        case GrimMessage::Op::rm_read: return "RM read";
        case GrimMessage::Op::multicast: return "multicast";
    }
    return "?";
}

GrimInjection::GrimInjection(system::System& sys) : sys_(sys) {}
GrimInjection::~GrimInjection() = default;

std::string GrimInjection::unsupported(system::System& sys) {
    if (sys.model().name() == "grim") return "";
    return "the " + sys.model().name() +
           " is not GRIM: the GRIM injector needs a GRIM cluster (LANai NICs running the grim firmware, e.g. preset grim-lanai9)";
}

const std::vector<std::string>& GrimInjection::counter_names() {
    static const std::vector<std::string> names = {
        "grim.sent",          "grim.received",      "grim.acks_sent",     "grim.acks_received", "grim.nacks_sent",
        "grim.nacks_received", "grim.retransmits",  "grim.timeouts",      "grim.duplicates",    "grim.crc_drops",
        "grim.undeliverable", "grim.xlate_hits",    "grim.xlate_misses",  "grim.xlate_errors",  "driver.xlate_interrupts",
        "grim.remote_errors", "grim.am_delivered",  "grim.rm_delivered",  "grim.rm_reads_served", "grim.rm_read_replies",
        "grim.mc_delivered",  "grim.mc_forwarded"};
    return names;
}

namespace {

bool has_target(GrimMessage::Op op) { return op != GrimMessage::Op::multicast; }
bool has_handler(GrimMessage::Op op) { return op == GrimMessage::Op::am || op == GrimMessage::Op::multicast; }

uint32_t pa(grim::Endpoint& ep, uint32_t va) { return ep.memory().pa(va); }

// A registered range of a node's process as bytes (MemoryError where it is not registered).
std::string vread(system::System& sys, grim::Endpoint& ep, uint32_t va, uint64_t n) {
    std::string out(n, '\0');
    ep.memory().read(sys.host_memory(ep.node()), va, {reinterpret_cast<uint8_t*>(out.data()), out.size()});
    return out;
}
void vwrite(system::System& sys, grim::Endpoint& ep, uint32_t va, const std::string& data) {
    ep.memory().write(sys.host_memory(ep.node()), va, {reinterpret_cast<const uint8_t*>(data.data()), data.size()});
}

}  // namespace

void GrimInjection::validate(const GrimMessage& m) const {
    const size_t n = sys_.node_count();
    check_node("sender node", m.sender, n);
    if (has_target(m.op)) {
        check_node("target node", m.target, n);
        if (m.target == m.sender) throw InputError("target node " + std::to_string(m.target) + ": the sender's own node; GRIM sends to another node");
    } else {
        if (m.members.empty()) throw InputError("members: a multicast group needs at least one node");
        for (size_t node : m.members) check_node("member node", node, n);
        if (m.group.empty()) throw InputError("group: a multicast tree needs a name");
    }
    if (has_handler(m.op) && m.handler.empty()) throw InputError("handler: an active message names its handler");
    const uint64_t max = m.op == GrimMessage::Op::am ? GRIM_MTU : kMaxBytes;
    if (m.bytes == 0 || m.bytes > max)
        throw InputError("payload size " + std::to_string(m.bytes) + ": " +
                         (m.op == GrimMessage::Op::am ? "an active message carries" : "the injector sends") + " 1 to " +
                         std::to_string(max) + " B" + (m.op == GrimMessage::Op::am ? " (GRIM's MTU)" : ""));
    if (has_target(m.op) && m.op != GrimMessage::Op::am && m.remote_offset > kMaxOffset)
        throw InputError("remote offset " + std::to_string(m.remote_offset) + ": at most " + std::to_string(kMaxOffset));
}

GrimInjection::Buffers& GrimInjection::buffers(size_t node) {
    grim::Endpoint& ep = grim::endpoint(sys_, node);  // Error naming the node when it runs other firmware
    Buffers& b = buffers_[node];
    if (b.endpoint != &ep) {
        b.endpoint = &ep;
        b.src = ep.malloc_pinned(uint32_t(kMaxBytes + kMaxOffset));
        b.contiguous = ep.malloc_pinned(uint32_t(kMaxBytes + kMaxOffset));
        b.pages = ep.pin_pages(uint32_t(kMaxBytes + kMaxOffset));
        b.word = ep.malloc_pinned(4);
    }
    return b;
}

void GrimInjection::register_handler(size_t node, const std::string& name) {
    grim::Endpoint& ep = grim::endpoint(sys_, node);
    if (!handler_names_.count(name)) {
        bool taken = true;
        try {
            ep.resolve(name);
        } catch (const Error&) {  // nobody registered the name yet
            taken = false;
        }
        if (taken) throw InputError("handler '" + name + "': another library on this system registered that name; choose another");
        handler_names_.insert(name);
    }
    // The handler checks the payload in the receive queue, where it is only while the
    // handler runs. A late arrival of an earlier, incomplete injection is recorded too
    // (its bytes or arguments then differ from this one's).
    ep.register_handler(name, [arrivals = arrivals_, &mem = sys_.host_memory(node), node](host::ProcessContext& ctx,
                                                                                          const grim::ActiveMessage& am) {
        const std::string got = read_bytes(mem, am.payload_addr, am.bytes);
        arrivals->got.push_back({node, ctx.now(), am.src_node, am.args, am.bytes, matching_bytes(got, arrivals->payload)});
    });
}

uint32_t GrimInjection::remote_region(const GrimMessage& m) {
    const Buffers& b = buffers(m.target);
    switch (m.memory) {
        case GrimMessage::Memory::contiguous: return b.contiguous + uint32_t(m.remote_offset);
        case GrimMessage::Memory::pages: return b.pages + uint32_t(m.remote_offset);
        case GrimMessage::Memory::unregistered: break;
    }
    return kUnregisteredVa + uint32_t(m.remote_offset);
}

std::vector<CounterChange> GrimInjection::counters(const std::vector<size_t>& nodes) const {
    std::vector<CounterChange> out;
    for (size_t n : nodes) {
        const system::Counters c = sys_.counters(n);
        for (const auto& name : counter_names()) {
            const uint64_t v = name == "driver.xlate_interrupts" ? grim::endpoint(sys_, n).translator().interrupts() : c.find(name).value_or(0);
            out.push_back({n, name, v, v});
        }
    }
    return out;
}

// The group's members subscribe (LC 0) and the nodes no longer in it leave, each from
// its own host (an in-band tree update, timed); the steps say when each was done.
void GrimInjection::join_group(const GrimMessage& m, const std::vector<size_t>& members, uint32_t tree, InjectionOutcome& out) {
    const std::vector<uint32_t> now = grim::multicast(sys_, m.sender).tree_nodes(tree);
    std::vector<std::unique_ptr<host::Process>> procs;
    std::vector<std::pair<size_t, bool>> changes;  // node, joins
    for (size_t n : members)
        if (std::find(now.begin(), now.end(), uint32_t(n)) == now.end()) changes.push_back({n, true});
    for (uint32_t n : now)
        if (std::find(members.begin(), members.end(), size_t(n)) == members.end()) changes.push_back({n, false});
    std::vector<Time> done(changes.size());
    for (size_t i = 0; i < changes.size(); ++i) {
        const auto [node, joins] = changes[i];
        grim::Multicast& mc = grim::multicast(sys_, node);
        procs.push_back(std::make_unique<host::Process>(sys_.host_cpu(node), joins ? "inject-join" : "inject-leave",
                                                        [&mc, tree, joins, &t = done[i]](host::ProcessContext& ctx) {
                                                            if (joins)
                                                                mc.subscribe(ctx, tree, 1);
                                                            else
                                                                mc.unsubscribe(ctx, tree, 1);
                                                            t = ctx.now();
                                                        }));
    }
    std::vector<const host::Process*> all;
    for (const auto& p : procs) all.push_back(p.get());
    run_until_done(sys_, all, kPatience);
    for (size_t i = 0; i < changes.size(); ++i) {
        if (procs[i]->failed()) out.errors.push_back(procs[i]->error_message());
        if (procs[i]->done() && !procs[i]->failed())
            out.events.push_back({changes[i].first, "member", changes[i].second ? "subscribed to '" + m.group + "'" : "left '" + m.group + "'",
                                  done[i], 0, 0, 0, tree, false});
    }
}

InjectionOutcome GrimInjection::inject(const GrimMessage& m) {
    validate(m);
    using Op = GrimMessage::Op;
    std::vector<size_t> receivers = m.op == Op::multicast ? m.members : std::vector<size_t>{m.target};
    std::sort(receivers.begin(), receivers.end());
    receivers.erase(std::unique(receivers.begin(), receivers.end()), receivers.end());
    std::vector<size_t> nodes = receivers;
    nodes.push_back(m.sender);
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    for (size_t n : nodes) buffers(n);  // every endpoint set up (Error for a node without GRIM) before anything is sent
    if (has_handler(m.op))
        for (size_t n : receivers) register_handler(n, m.handler);

    InjectionOutcome out;
    const std::string payload = pattern_payload(m.pattern, m.bytes);
    arrivals_->payload = payload;
    arrivals_->got.clear();
    grim::Endpoint& sender = grim::endpoint(sys_, m.sender);
    const Buffers& sb = buffers(m.sender);
    uint32_t tree = 0;
    if (m.op == Op::multicast) {
        tree = grim::multicast(sys_, m.sender).find_tree(m.group);
        join_group(m, receivers, tree, out);
    }
    const std::vector<CounterChange> before = counters(nodes);

    // The memory the operation writes, cleared first so a check cannot pass on an
    // earlier injection's bytes; the word the target (or reader) waits on, set to what
    // it is not after the operation.
    uint32_t landing = 0;  // RM: VA of where the bytes land (on the target, or the reader's for a read)
    grim::Endpoint* lands_on = nullptr;
    uint32_t word_va = 0, word_after = 0;
    grim::Endpoint* word_of = nullptr;
    uint32_t remote = 0;  // a read's source on the target
    switch (m.op) {
        case Op::am:
        case Op::multicast: write_bytes(sys_.host_memory(m.sender), pa(sender, sb.src), payload); break;
        case Op::rm_p:
        case Op::rm_v: {
            grim::Endpoint& target = grim::endpoint(sys_, m.target);
            vwrite(sys_, sender, sb.src, payload);
            landing = m.op == Op::rm_p ? buffers(m.target).contiguous + uint32_t(m.remote_offset) : remote_region(m);
            lands_on = &target;
            word_of = &target;
            word_va = buffers(m.target).word;
            word_after = m.notify_value;
            break;
        }
        case Op::rm_read: {
            grim::Endpoint& target = grim::endpoint(sys_, m.target);
            remote = remote_region(m);
            if (m.memory != GrimMessage::Memory::unregistered) vwrite(sys_, target, remote, payload);
            landing = sb.contiguous;
            lands_on = &sender;
            word_of = &sender;
            word_va = sb.word;
            word_after = 0;  // the reply zeroes the reader's lock word
            break;
        }
    }
    const bool lands_registered = !(m.op == Op::rm_v && m.memory == GrimMessage::Memory::unregistered);
    if (lands_on && lands_registered)
        vwrite(sys_, *lands_on, landing, std::string(m.bytes, '\0'));
    if (word_of) {
        const uint32_t other = ~word_after;
        vwrite(sys_, *word_of, word_va, std::string(reinterpret_cast<const char*>(&other), 4));
    }

    // The sender's process: the library call, then (a read) waiting for the reply. The
    // receivers' processes poll until the handler ran there or the word changed.
    Time sent{}, queued{}, reply{};
    bool called = false, returned = false;
    uint32_t handler_id = 0;
    if (has_handler(m.op)) handler_id = sender.resolve(m.handler);
    const bool sender_waits = m.op == Op::rm_read;
    auto has_arrived = [this](size_t node) {
        return std::any_of(arrivals_->got.begin(), arrivals_->got.end(), [&](const Arrival& a) { return a.node == node; });
    };
    const bool sender_is_member = m.op == Op::multicast && std::count(receivers.begin(), receivers.end(), m.sender);
    auto send = [&](host::ProcessContext& ctx) {
        sent = ctx.now();
        called = true;
        switch (m.op) {
            case Op::am: sender.am_send(ctx, uint32_t(m.target), handler_id, m.args, pa(sender, sb.src), uint32_t(m.bytes)); break;
            case Op::rm_p:
                sender.rm_write_p(ctx, uint32_t(m.target), pa(*lands_on, landing), pa(sender, sb.src), uint32_t(m.bytes), pa(*word_of, word_va),
                                  m.notify_value);
                break;
            case Op::rm_v:
                sender.rm_write_v(ctx, uint32_t(m.target), landing, sb.src, uint32_t(m.bytes), word_va, m.notify_value);
                break;
            case Op::rm_read: sender.rm_read(ctx, uint32_t(m.target), remote, landing, uint32_t(m.bytes), word_va); break;
            case Op::multicast:
                grim::multicast(sys_, m.sender).send_mc(ctx, tree, handler_id, m.args, pa(sender, sb.src), uint32_t(m.bytes));
                break;
        }
        queued = ctx.now();
        returned = true;
        if (sender_waits) {
            sender.wait(ctx, [&] { return sender.word(word_va) == word_after; });
            reply = ctx.now();
        }
        if (sender_is_member) sender.wait(ctx, [&] { return has_arrived(m.sender); });
    };
    std::vector<std::unique_ptr<host::Process>> procs;
    procs.push_back(std::make_unique<host::Process>(sys_.host_cpu(m.sender), "inject-send", send));
    std::map<size_t, Time> changed;  // RM writes: when the target saw its notification word
    for (size_t r : receivers) {
        if (r == m.sender || m.op == Op::rm_read) continue;  // the target's NI serves a read without its host
        grim::Endpoint* ep = &grim::endpoint(sys_, r);
        procs.push_back(std::make_unique<host::Process>(sys_.host_cpu(r), "inject-receive", [&, r, ep](host::ProcessContext& ctx) {
            if (word_of == ep) {
                ep->wait(ctx, [&] { return ep->word(word_va) == word_after; });
                changed[r] = ctx.now();
            } else {
                ep->wait(ctx, [&] { return has_arrived(r); });
            }
        }));
    }
    std::vector<const host::Process*> all;
    for (const auto& p : procs) all.push_back(p.get());
    const std::vector<size_t> faulted = run_until_done(sys_, all, kPatience);
    for (size_t n : faulted) out.errors.push_back("node " + std::to_string(n) + "'s NIC faulted: " + sys_.fault_report(n));

    // What the NI reported to the sender meanwhile (a message given up, a refused remote
    // memory operation) is raised by the library at its next poll: one more poll there.
    bool all_done = std::all_of(all.begin(), all.end(), [](const host::Process* p) { return p->done(); });
    if (faulted.empty() && returned) {
        host::Process check(sys_.host_cpu(m.sender), "inject-check", [&](host::ProcessContext& ctx) { sender.poll(ctx); });
        run_until_done(sys_, {&check}, kPatience);
        if (check.failed()) out.errors.push_back(check.error_message());
    }
    for (const auto& p : procs)
        if (p->failed()) out.errors.push_back(p->error_message());
    all_done = all_done && std::none_of(all.begin(), all.end(), [](const host::Process* p) { return p->failed(); });

    // The steps.
    const uint64_t handler_or_word = has_handler(m.op) ? handler_id : m.notify_value;
    if (called)
        out.events.push_back({m.sender, "sender", std::string(to_string(m.op)) + " sent", sent, m.bytes, m.bytes, m.remote_offset, handler_or_word, false});
    if (returned)
        out.events.push_back({m.sender, "sender", "in the NI's send queue (PIO done)", queued, m.bytes, m.bytes, m.remote_offset,
                              handler_or_word, false});
    if (m.op == Op::rm_read && reply.ps() > 0)
        out.events.push_back({m.sender, "reader", "reply arrived: lock word zeroed", reply, m.bytes, m.bytes, m.remote_offset, 0, false});
    for (const auto& [node, t] : changed)
        out.events.push_back({node, "target", "notification word = " + std::to_string(word_after), t, m.bytes, m.bytes, m.remote_offset,
                              word_after, false});
    for (const Arrival& a : arrivals_->got)
        out.events.push_back({a.node, m.op == Op::multicast ? "member" : "target",
                              "handler '" + m.handler + "' ran (from node " + std::to_string(a.src_node) + ", args " +
                                  std::to_string(a.args[0]) + " " + std::to_string(a.args[1]) + " " + std::to_string(a.args[2]) + " " +
                                  std::to_string(a.args[3]) + ")",
                              a.time, a.bytes, m.bytes, 0, handler_id, a.matching != m.bytes || a.bytes != m.bytes || a.args != m.args});
    std::stable_sort(out.events.begin(), out.events.end(), [](const auto& a, const auto& b) { return a.time < b.time; });

    // The bytes where they should have arrived.
    if (has_handler(m.op)) {
        out.bytes_expected = m.bytes * receivers.size();
        for (size_t r : receivers) {
            uint64_t best = 0;  // a node's first arrival that matches this message
            for (const Arrival& a : arrivals_->got)
                if (a.node == r && a.bytes == m.bytes && a.args == m.args) best = std::max(best, a.matching);
            out.bytes_matching += best;
        }
    } else {
        out.bytes_expected = m.bytes;
        try {
            out.bytes_matching = matching_bytes(vread(sys_, *lands_on, landing, m.bytes), payload);
        } catch (const grim::MemoryError&) {  // an unregistered target: nothing could land there
        }
    }
    const std::vector<CounterChange> after = counters(nodes);
    for (size_t i = 0; i < before.size(); ++i) out.counters.push_back({before[i].node, before[i].name, before[i].before, after[i].after});

    out.complete = all_done && out.errors.empty();
    std::string what = std::string(to_string(m.op)) + " of " + std::to_string(m.bytes) + " B, node " + std::to_string(m.sender);
    if (m.op == Op::multicast) {
        what += " → group '" + m.group + "' (nodes";
        for (size_t r : receivers) what += " " + std::to_string(r);
        what += ")";
    } else {
        what += (m.op == Op::rm_read ? " ← node " : " → node ") + std::to_string(m.target);
    }
    if (has_handler(m.op)) what += ", handler '" + m.handler + "' (id " + std::to_string(handler_id) + ")";
    out.summary = what + ": " + std::to_string(out.events.size()) + " steps, " + std::to_string(out.bytes_matching) + "/" +
                  std::to_string(out.bytes_expected) + " bytes checked" + (out.complete ? "" : " (incomplete)");
    return out;
}

}  // namespace niclab::gui
