// Multicast fragmentation and reassembly (mc_fragments.hpp; seed 004 §8.2.1, §8.2.3):
// the sender's three kinds of fragments and the three handlers that rebuild the
// message at every member.
#include <algorithm>
#include <span>

#include "niclab/systems/grim/endpoint.hpp"
#include "niclab/systems/grim/multicast.hpp"

namespace niclab::grim {

namespace {
constexpr uint32_t kInitBytes = 16;  // the init's payload: the original four arguments
}

// Fragments of the endpoint's fragment size (the AM path's, §5.5: 63 KB store-and-
// forward); the init goes first and is small, so the receivers allocate while the
// first body is on its way (L2121).
void Multicast::send_fragmented(host::ProcessContext& ctx, const McTree& t, uint32_t handler, const std::array<uint32_t, 4>& args,
                                uint64_t src, uint32_t bytes) {
    const uint32_t key = mc_fragment_key(GRIM_ENDPOINT(ep_.node(), ep_.lc()), t.id);
    const uint32_t counter = ++counter_[t.id];
    ep_.memory_.write(kFragmentStage, std::span(reinterpret_cast<const uint8_t*>(args.data()), kInitBytes));
    // init: id, counter, size, the original handler; its payload the original arguments.
    polled_inject(ctx, t, init_, {key, counter, bytes, handler}, kFragmentStage, kInitBytes);
    const uint32_t fragment = ep_.fragment_bytes();
    for (uint32_t off = 0; off < bytes; off += fragment) {
        const uint32_t n = std::min(fragment, bytes - off);
        polled_inject(ctx, t, off + n == bytes ? final_ : body_, {key, counter, off, 0}, src + off, n);
    }
}

// While a fragment waits for room in the send queue the library polls its endpoint, as
// Endpoint::push does: a member's own AM queue fills with the tree's messages (its own
// fragments too); while it is full its NI refuses the tree's hops (NACK, §8.1.4) and the
// tree backs up to the root, which refuses our injections, so the queue drains only if
// we poll (not from inside a handler: poll() is not re-entrant). Unlike push it gives
// up: a queue that stays full for a second of simulated time (members that never poll)
// is an error, not a hang, as an update's wait is (multicast.cpp).
void Multicast::polled_inject(host::ProcessContext& ctx, const McTree& t, uint32_t handler, const std::array<uint32_t, 4>& args,
                              uint64_t src, uint32_t bytes) {
    const Time since = ctx.now();
    while (!ep_.send_room(ctx, ep_.queue_need(bytes))) {
        if (ctx.now() - since > Time::ms(1000))
            throw MulticastError("node " + std::to_string(ep_.node()) + ": grim_sendMC: no room in the send queue for a fragment to " +
                                     "multicast tree " + std::to_string(t.id) + " ('" + t.name + "') for 1 s: its members are not " +
                                     "polling (their AM queues are full)",
                                 "multicast id");
        if (!ep_.dispatching_) ep_.poll(ctx);
    }
    inject(ctx, t, handler, args, src, bytes);
}

Multicast::Partial& Multicast::partial(const ActiveMessage& m, const char* kind) {
    const auto it = partial_.find({m.args[0], m.args[1]});
    if (it == partial_.end())
        throw Error("node " + std::to_string(ep_.node()) + ": a multicast " + kind + " fragment from node " + std::to_string(m.src_node) +
                    " (tree " + std::to_string(m.args[0] & 0xFF) + ", message " + std::to_string(m.args[1]) +
                    ") names no message being reassembled here (its init never came)");
    return it->second;
}

// assumption: allocating the buffer costs the process nothing modelled (the am
// transport's reassembly buffer is not charged either); the copies are.
void Multicast::fragment_init(const ActiveMessage& m) {
    const uint32_t total = m.args[2];
    if (m.bytes != kInitBytes || total <= GRIM_MTU || total > kMaxMessage)
        throw Error("node " + std::to_string(ep_.node()) + ": a malformed multicast init fragment from node " + std::to_string(m.src_node) +
                    " (" + std::to_string(m.bytes) + " B, message of " + std::to_string(total) + " B)");
    if (partial_.count({m.args[0], m.args[1]}))
        throw Error("node " + std::to_string(ep_.node()) + ": a second multicast init for message " + std::to_string(m.args[1]) +
                    " from node " + std::to_string(m.src_node));
    Partial p;
    p.buffer = arena_.allocate(total);
    if (!p.buffer)
        throw MulticastError("node " + std::to_string(ep_.node()) + ": no room to reassemble a " + std::to_string(total) +
                                 " B multicast from node " + std::to_string(m.src_node) + " (" + std::to_string(partial_.size()) +
                                 " messages being reassembled in " + std::to_string(arena_.bytes()) + " B)",
                             "bytes");
    p.total = total;
    p.handler = m.args[3];
    p.src_node = m.src_node;
    ep_.memory_.read(m.payload_addr, std::span(reinterpret_cast<uint8_t*>(p.args.data()), kInitBytes));
    partial_[{m.args[0], m.args[1]}] = p;
}

void Multicast::fragment_copy(host::ProcessContext& ctx, const ActiveMessage& m, bool final) {
    Partial& p = partial(m, final ? "final" : "body");
    const uint32_t off = m.args[2];
    if (off != p.have || uint64_t(off) + m.bytes > p.total || (final && off + m.bytes != p.total))
        throw Error("node " + std::to_string(ep_.node()) + ": multicast fragment at offset " + std::to_string(off) + " (" +
                    std::to_string(m.bytes) + " B) of message " + std::to_string(m.args[1]) + " from node " + std::to_string(m.src_node) +
                    " does not follow the " + std::to_string(p.have) + " B reassembled (of " + std::to_string(p.total) + ")");
    // The handler copies the fragment out of the queue slot into the buffer (§8.2.1).
    ctx.copy(m.bytes);
    std::vector<uint8_t> bytes(m.bytes);
    ep_.memory_.read(m.payload_addr, bytes);
    ep_.memory_.write(p.buffer + off, bytes);
    p.have += m.bytes;
    if (!final) return;
    // The original handler on the whole message, then the buffer is freed (L2125).
    const Partial whole = p;
    partial_.erase({m.args[0], m.args[1]});
    struct Free {
        ReassemblyArena& arena;
        uint64_t at;
        ~Free() { arena.release(at); }
    } free_after{arena_, whole.buffer};
    const auto fn = ep_.handlers_.find(whole.handler);
    if (fn == ep_.handlers_.end())
        throw Error("node " + std::to_string(ep_.node()) + ": fragmented multicast from node " + std::to_string(whole.src_node) +
                    " names handler " + std::to_string(whole.handler) + ", which is not registered");
    ActiveMessage out;
    out.src_node = whole.src_node;
    out.handler = whole.handler;
    out.args = whole.args;
    out.payload_addr = whole.buffer;
    out.bytes = whole.total;
    ctx.compute(ep_.params_.handler_call);
    fn->second(ctx, out);
}

}  // namespace niclab::grim
