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

namespace niclab::grim {

class Endpoint;

// A multicast call refused: an unknown tree, a channel mask the node has no LCs for.
// `key` names the argument at fault ("multicast id", "channels", "name").
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
// endpoint: an update returns once each NI of the new tree has applied it (read from
// the NIs' tables, untimed, while this process polls), so a send after a subscription
// reaches the new tree.
class Multicast {
public:
    static constexpr const char* kBroadcastTree = "grim.broadcast";
    // Host memory the library builds tree-update payloads in (driver-owned, beside the
    // endpoint's translation request and error record).
    static constexpr uint64_t kUpdateStage = 0x3FFF'A000;

    Multicast(Endpoint& ep, McDirectory& directory, std::function<Endpoint&(uint32_t)> peer);

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
    // gets nothing (and nothing is sent).
    void send_mc(host::ProcessContext& ctx, uint32_t id, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src, uint32_t bytes);
    // grim_broadcast: to LC 0 of every node (tree kBroadcastTree, everyone subscribed at
    // its first use).
    void broadcast(host::ProcessContext& ctx, uint32_t handler, const std::array<uint32_t, 4>& args, uint64_t src, uint32_t bytes);

    // The tree as last updated (ascending NI ids, heap order; empty: nobody).
    const std::vector<uint32_t>& tree_nodes(uint32_t id) const;
    // This NI's table for tree `id` (the firmware's, read untimed).
    grim_mc_tree table(uint32_t id) const;
    Endpoint& endpoint() { return ep_; }

private:
    void check_channels(const char* call, uint32_t channels) const;
    void update(host::ProcessContext& ctx, McTree& t);

    Endpoint& ep_;
    McDirectory& dir_;
    std::function<Endpoint&(uint32_t)> peer_;
};

}  // namespace niclab::grim
