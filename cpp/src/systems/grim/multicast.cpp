// GRIM's multicast host library (multicast.hpp; seed 004 §8.1.4-8.1.5, App. C.6).
#include "niclab/systems/grim/multicast.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>

#include "niclab/systems/grim/endpoint.hpp"

namespace niclab::grim {

namespace {
std::string tree_label(const McTree& t) { return "multicast tree " + std::to_string(t.id) + " ('" + t.name + "')"; }
}  // namespace

uint32_t McDirectory::find(const std::string& name, uint32_t node) {
    if (name.empty()) throw MulticastError("grim_findMulticastTree: a tree needs a name", "name");
    if (const auto it = ids_.find(name); it != ids_.end()) return it->second;
    if (trees_.size() >= GRIM_MC_TREES)
        throw MulticastError("grim_findMulticastTree: no tree id left for '" + name + "' (the header's tree field is 8 bits: " +
                                 std::to_string(GRIM_MC_TREES) + " trees)",
                             "name");
    McTree t;
    t.name = name;
    t.id = uint32_t(trees_.size());
    t.owner = node;
    trees_.push_back(t);
    ids_[name] = t.id;
    return t.id;
}

McTree& McDirectory::tree(uint32_t id, const char* call) {
    if (id >= trees_.size())
        throw MulticastError(std::string(call) + ": no multicast tree " + std::to_string(id) + " (" + std::to_string(trees_.size()) +
                                 " found so far; grim_findMulticastTree makes them)",
                             "multicast id");
    return trees_[id];
}

Multicast::Multicast(Endpoint& ep, McDirectory& directory, std::function<Multicast&(uint32_t)> peer)
    : ep_(ep), dir_(directory), peer_(std::move(peer)) {
    init_ = ep_.register_handler(kMcFragmentInit, [this](host::ProcessContext&, const ActiveMessage& m) { fragment_init(m); });
    body_ = ep_.register_handler(kMcFragmentBody, [this](host::ProcessContext& ctx, const ActiveMessage& m) { fragment_copy(ctx, m, false); });
    final_ = ep_.register_handler(kMcFragmentFinal, [this](host::ProcessContext& ctx, const ActiveMessage& m) { fragment_copy(ctx, m, true); });
}

uint32_t Multicast::find_tree(const std::string& name) { return dir_.find(name, ep_.node()); }

void Multicast::check_channels(const char* call, uint32_t channels) const {
    // A node's multicast runs through its LC 0 endpoint (ep_.lc()); the mask is a u8
    // (Table C.8), one bit per LC.
    const uint32_t have = 1u << ep_.lc();
    if (channels == 0 || (channels & ~have))
        throw MulticastError(std::string(call) + ": channels 0x" + [&] {
            char b[16];
            std::snprintf(b, sizeof b, "%02x", channels);
            return std::string(b);
        }() + " names no logical channel or one node " + std::to_string(ep_.node()) + " does not have (its endpoint is LC " +
                                 std::to_string(ep_.lc()) + ", mask 0x" + [&] {
                                     char b[16];
                                     std::snprintf(b, sizeof b, "%02x", have);
                                     return std::string(b);
                                 }() + ")",
                             "channels");
}

uint32_t Multicast::subscribe(host::ProcessContext& ctx, uint32_t id, uint32_t channels) {
    McTree& t = dir_.tree(id, "grim_subscribeMulticast");
    check_channels("grim_subscribeMulticast", channels);
    uint8_t& mask = t.members[ep_.node()];
    if ((mask | channels) == mask) return id;
    mask = uint8_t(mask | channels);
    update(ctx, t);
    return id;
}

uint32_t Multicast::subscribe_by_name(host::ProcessContext& ctx, const std::string& name, uint32_t channels) {
    check_channels("grim_subscribeMulticastByName", channels);
    return subscribe(ctx, find_tree(name), channels);
}

void Multicast::unsubscribe(host::ProcessContext& ctx, uint32_t id, uint32_t channels) {
    McTree& t = dir_.tree(id, "grim_unsubscribeMulticast");
    check_channels("grim_unsubscribeMulticast", channels);
    const auto it = t.members.find(ep_.node());
    if (it == t.members.end() || !(it->second & channels)) return;
    it->second = uint8_t(it->second & ~channels);
    if (!it->second) t.members.erase(it);
    update(ctx, t);
}

// The owner's new tree and its in-band update (§8.1.5 L2073): to the tree's current
// root, which holds the ticket counter (or to the new root if there is none); the
// firmware hands it on and forwards it down the new tree.
void Multicast::update(host::ProcessContext& ctx, McTree& t) {
    // The owner serializes its tree's updates: each goes to the root the last one made.
    while (t.updating) {
        ep_.poll(ctx);
        ctx.compute(Time::us(5));
    }
    t.updating = true;
    struct Done {
        McTree& t;
        ~Done() { t.updating = false; }
    } done{t};
    std::vector<uint32_t> nodes;
    for (const auto& [n, mask] : t.members) nodes.push_back(n);  // std::map: ascending
    const std::vector<uint32_t> old = t.nodes;
    const int old_root = t.root;
    ++t.epoch;
    std::vector<uint32_t> words = {t.epoch, uint32_t(nodes.size())};
    for (uint32_t n : nodes)
        words.push_back(GRIM_MC_MEMBER(n, t.members.at(n), std::find(old.begin(), old.end(), n) != old.end()));
    const int dest = old_root >= 0 ? old_root : (nodes.empty() ? -1 : int(nodes[0]));
    t.nodes = nodes;
    t.root = nodes.empty() ? -1 : int(nodes[0]);
    if (dest < 0) return;
    const uint32_t bytes = uint32_t(words.size() * 4);
    ep_.memory_.write(kUpdateStage, std::span(reinterpret_cast<const uint8_t*>(words.data()), bytes));
    ep_.push(ctx,
             {GRIM_W0(0, 0), GRIM_W1(GRIM_T_MC_UPDATE, 0, t.id, GRIM_ENDPOINT(ep_.node(), ep_.lc())),
              GRIM_W2(bytes / 4, GRIM_ENDPOINT(uint32_t(dest), GRIM_MC_LC)), GRIM_W3(ep_.lc(), 0), 0, 0, 0, 0},
             kUpdateStage, bytes);
    // Set-up: wait until every NI of the new tree, and the old root, has applied it.
    std::vector<uint32_t> watch = nodes;
    if (old_root >= 0) watch.push_back(uint32_t(old_root));
    const uint32_t epoch = t.epoch;
    auto settled = [&] {
        for (uint32_t n : watch) {
            const Endpoint& e = peer_(n).ep_;
            if (e.nic_.nic().peek32(e.shared_ + offsetof(grim_shared, mc) + t.id * sizeof(grim_mc_tree) + offsetof(grim_mc_tree, epoch)) != epoch)
                return false;
        }
        return true;
    };
    // assumption: the library looks every 5 us while it polls its own queue.
    for (int i = 0; !settled(); ++i) {
        if (i == 200000)
            throw MulticastError("node " + std::to_string(ep_.node()) + ": the update of " + tree_label(t) + " to epoch " +
                                     std::to_string(epoch) + " was not applied by every NI within 1 s of simulated time",
                                 "multicast id");
        ep_.poll(ctx);
        ctx.compute(Time::us(5));
    }
}

void Multicast::check_size(const char* call, uint64_t bytes) {
    if (bytes > kMaxMessage)
        throw MulticastError(std::string(call) + ": " + std::to_string(bytes) + " B is more than the " + std::to_string(kMaxMessage) +
                                 " B the library fragments and reassembles in one call (one message carries up to GRIM's MTU of " +
                                 std::to_string(GRIM_MTU) + " B)",
                             "bytes");
}

void Multicast::send_mc(host::ProcessContext& ctx, uint32_t id, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src,
                        uint32_t bytes) {
    const McTree& t = dir_.tree(id, "grim_sendMC");
    check_size("grim_sendMC", bytes);
    // The header's handler field is 16 bits and 0 names none (handler_server.hpp).
    if (handler == 0 || handler > 0xFFFF)
        throw MulticastError("grim_sendMC: " + std::to_string(handler) + " is no handler id (the handler server gives 1..65535)", "handler");
    if (t.root < 0) return;
    if (bytes > GRIM_MTU)
        send_fragmented(ctx, t, handler, args, src, bytes);
    else
        inject(ctx, t, handler, args, src, bytes);
}

void Multicast::inject(host::ProcessContext& ctx, const McTree& t, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src,
                       uint32_t bytes) {
    const uint32_t words = (bytes + 3) / 4;
    ep_.push(ctx,
             {GRIM_W0(0, 0), GRIM_W1(GRIM_T_MC, words * 4 - bytes, t.id, GRIM_ENDPOINT(ep_.node(), ep_.lc())),
              GRIM_W2(words, GRIM_ENDPOINT(uint32_t(t.root), GRIM_MC_LC)), GRIM_W3(ep_.lc(), handler), args[0], args[1], args[2],
              args[3]},
             src, bytes);
}

void Multicast::broadcast(host::ProcessContext& ctx, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src, uint32_t bytes) {
    const uint32_t id = find_tree(kBroadcastTree);
    McTree& t = dir_.tree(id, "grim_broadcast");
    const uint32_t nodes = ep_.nic_.network() ? ep_.nic_.network()->nodes() : 1;
    if (t.members.size() != nodes) {
        // Every node's library is set up (its fragment handlers registered) before
        // anything reaches it.
        for (uint32_t n = 0; n < nodes; ++n) peer_(n);
        for (uint32_t n = 0; n < nodes; ++n) t.members[n] = uint8_t(1u << ep_.lc());
        update(ctx, t);
    }
    send_mc(ctx, id, handler, args, src, bytes);
}

const std::vector<uint32_t>& Multicast::tree_nodes(uint32_t id) const { return dir_.tree(id, "tree_nodes").nodes; }

grim_mc_tree Multicast::table(uint32_t id) const {
    if (id >= GRIM_MC_TREES) throw MulticastError("table: no multicast tree " + std::to_string(id), "multicast id");
    grim_mc_tree out{};
    auto* w = reinterpret_cast<uint32_t*>(&out);
    for (uint32_t i = 0; i < sizeof out / 4; ++i)
        w[i] = ep_.nic_.nic().peek32(ep_.shared_ + offsetof(grim_shared, mc) + id * sizeof(grim_mc_tree) + 4 * i);
    return out;
}

}  // namespace niclab::grim
