// Which buffers a GRIM transport takes and where its peer's transport wants its blocks
// (transport.hpp).
#include "niclab/systems/grim/transport.hpp"

namespace niclab::grim {

TransportDirectory::Slot TransportDirectory::add(uint32_t node, uint32_t peer) {
    return {per_node_[node]++, per_pair_[{node, peer}]++};
}

void TransportDirectory::publish(uint32_t node, uint32_t peer, uint32_t pairing, uint64_t recv, uint64_t notify) {
    Landing& l = landings_[{node, peer, pairing}];
    l.recv = recv;
    l.notify = notify;
    // Its peer's program hears of it no sooner than anything else from this node could
    // reach it (the kernel's lookahead): at once, a node whose core has run ahead would
    // see it in its past.
    kernel_.schedule_in(kernel_.lookahead(), [this] { published_.notify_all(); }, sim::kNoNode);
}

Landing* TransportDirectory::find(uint32_t node, uint32_t peer, uint32_t pairing) {
    const auto it = landings_.find({node, peer, pairing});
    return it == landings_.end() ? nullptr : &it->second;
}

}  // namespace niclab::grim
