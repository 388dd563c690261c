#pragma once
// GRIM's multicast (seed 004 §8.1.4-8.1.5, App. C.6 Tables C.8-C.9): subscription-based
// trees replicated by the NIs (firmware/grim/multicast.c; the wire format and the
// single-recycle-queue scheme are in grim_fw.h "Multicast").
//
// McDirectory is the database of §8.1.4 (L2063): "one node in the cluster manages a
// database for translating multicast string names into runtime integer ids"; the
// first endpoint to look a name up owns the tree and keeps its subscription list.
// Like the handler server (handler_server.hpp) it is node 0's and its look-ups are
// set-up, untimed (the thesis measures none of it). The owner's special AMs are not
// modelled either: assumption: a subscribing endpoint's library does the owner's work
// (recompute the tree) and injects the in-band tree update itself, through its own LC;
// the update (§8.1.5 L2073) and everything after it are timed.
//
// The tree is the binary heap of the subscribed NIs in ascending id order (§8.1.3
// L2049: ancestors have smaller ids), so its depth is floor(log2(n)) + 1 hops counted
// in NIs (Fig. 8.8's 2-3 and 4-7 hosts, L2099).
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "niclab/fw/grim_fw.h"
#include "niclab/host/process.hpp"
#include "niclab/sim/error.hpp"
#include "niclab/systems/grim/mc_fragments.hpp"

namespace niclab::grim {

class Endpoint;
struct ActiveMessage;

// A multicast call refused: an unknown tree, a channel mask the node has no LCs for, a
// message too large, a handler id that cannot be one. `key` names the argument at fault
// ("multicast id", "channels", "name", "bytes", "handler").
class MulticastError : public Error {
public:
    MulticastError(const std::string& what, std::string key) : Error(what), key_(std::move(key)) {}
    const std::string& key() const { return key_; }

private:
    std::string key_;
};

struct McTree {
    std::string name;
    uint32_t id = 0;
    uint32_t owner = 0;                       // the node that first looked the name up
    std::map<uint32_t, uint8_t> members;      // node -> subscribed LC mask
    std::vector<uint32_t> nodes;              // the tree as last updated: ascending ids (heap order)
    int root = -1;                            // its root NI (-1: nobody subscribes)
    uint32_t epoch = 0;                       // updates issued
    bool updating = false;                    // an update is on its way: the next waits
};

class McDirectory {
public:
    // The tree's id, created (owned by `node`) at the first look-up. Ids 0..255: the
    // header's tree field is 8 bits (Fig. 4.2).
    uint32_t find(const std::string& name, uint32_t node);
    // MulticastError naming "multicast id" if there is no such tree.
    McTree& tree(uint32_t id, const char* call);
    const McTree* get(uint32_t id) const { return id < trees_.size() ? &trees_[id] : nullptr; }

private:
    std::map<std::string, uint32_t> ids_;
    std::deque<McTree> trees_;  // references stay valid as trees are added
};

// One endpoint's multicast calls (Tables C.8-C.9). `peer(node)` gives every node's
// multicast calls (and through them its endpoint): an update returns once each NI of the new tree has applied it (read from
// the NIs' tables, untimed, while this process polls), so a send after a subscription
// reaches the new tree.
class Multicast {
public:
    static constexpr const char* kBroadcastTree = "grim.broadcast";
    // Host memory the library builds tree-update payloads in (driver-owned, beside the
    // endpoint's translation request and error record).
    static constexpr uint64_t kUpdateStage = 0x3FFF'A000;
    // ... and a fragmented message's init payload (its four arguments).
    static constexpr uint64_t kFragmentStage = 0x3FFF'9000;
    // Fragmentation (§8.2.3, mc_fragments.hpp). assumption: the library takes messages of
    // up to 16 MB in one call (the thesis gives no limit; the count is a u32) and
    // reassembles them in 128 MB of host memory above the page-pinned frames (vm.hpp),
    // room for eight of the largest at once at one receiver.
    static constexpr uint64_t kMaxMessage = 16ull << 20;
    static constexpr uint64_t kReassemblyBase = 0x7000'0000, kReassemblyBytes = 128ull << 20;

    // Registers the three fragment handlers (§8.2.1 Fig. 8.9) on the endpoint.
    Multicast(Endpoint& ep, McDirectory& directory, std::function<Multicast&(uint32_t)> peer);

    // grim_findMulticastTree
    uint32_t find_tree(const std::string& name);
    // grim_subscribeMulticast: this node's LCs in the Boolean mask `channels` (L2724)
    // join tree `id`; returns `id`.
    uint32_t subscribe(host::ProcessContext& ctx, uint32_t id, uint32_t channels);
    uint32_t subscribe_by_name(host::ProcessContext& ctx, const std::string& name, uint32_t channels);
    // grim_unsubscribeMulticast: the LCs in `channels` leave tree `id`.
    void unsubscribe(host::ProcessContext& ctx, uint32_t id, uint32_t channels);
    // grim_sendMC: an AM for every subscribed endpoint of tree `id`, injected once
    // through this endpoint's LC to the tree's root NI. A tree nobody subscribes to
    // gets nothing (and nothing is sent). Up to GRIM_MTU bytes go as one message; up to
    // kMaxMessage as init, body and final fragments of the endpoint's fragment size
    // (§8.2.3), whole at every member before `handler` runs there.
    void send_mc(host::ProcessContext& ctx, uint32_t id, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src, uint32_t bytes);
    // grim_broadcast: to LC 0 of every node (tree kBroadcastTree, everyone subscribed at
    // its first use).
    void broadcast(host::ProcessContext& ctx, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src, uint32_t bytes);

    // The tree as last updated (ascending NI ids, heap order; empty: nobody).
    const std::vector<uint32_t>& tree_nodes(uint32_t id) const;
    // This NI's table for tree `id` (the firmware's, read untimed).
    grim_mc_tree table(uint32_t id) const;
    Endpoint& endpoint() { return ep_; }
    // Fragmented messages this node is reassembling now.
    uint64_t reassembling() const { return partial_.size(); }
    // MulticastError naming "bytes" if `call` may not send `bytes` in one call.
    static void check_size(const char* call, uint64_t bytes);

private:
    // A fragmented message being reassembled here, by its reassembly id.
    struct Partial {
        uint64_t buffer = 0;
        uint32_t total = 0, have = 0, handler = 0, src_node = 0;
        std::array<uint32_t, 4> args{};
    };
    void check_channels(const char* call, uint32_t channels) const;
    void update(host::ProcessContext& ctx, McTree& t);
    // One multicast message into the LC, to the tree's root NI.
    void inject(host::ProcessContext& ctx, const McTree& t, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src,
                uint32_t bytes);
    // mc_fragments.cpp: the sender's side and the three handlers.
    void send_fragmented(host::ProcessContext& ctx, const McTree& t, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src,
                         uint32_t bytes);
    void polled_inject(host::ProcessContext& ctx, const McTree& t, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src,
                       uint32_t bytes);
    void fragment_init(const ActiveMessage& m);
    void fragment_copy(host::ProcessContext& ctx, const ActiveMessage& m, bool final);
    Partial& partial(const ActiveMessage& m, const char* kind);

    Endpoint& ep_;
    McDirectory& dir_;
    std::function<Multicast&(uint32_t)> peer_;
    uint32_t init_ = 0, body_ = 0, final_ = 0;    // the fragment handlers' ids
    std::array<uint32_t, GRIM_MC_TREES> counter_{};  // fragmented messages sent, per tree
    std::map<std::pair<uint32_t, uint32_t>, Partial> partial_;  // by (endpoint << 8 | tree, counter)
    ReassemblyArena arena_{kReassemblyBase, kReassemblyBytes};
};

}  // namespace niclab::grim
