// Wormhole switching (NetworkParams::switching = Switching::Wormhole), at packet level.
//
// A packet of W flits is a worm: its head moves on as soon as the next buffer has one
// flit free, and its body streams behind at the link rate, as far as the buffers on
// its own path allow. Flit k of the worm crosses link l no earlier than
//   - the head's start on l + (k+1) flit times (the link rate),
//   - flit k crossing the link before (it has to arrive first),
//   - flit k - C crossing the next link + that link's latency (C = the flits of the
//     buffer at the end of l: the credit for its place has to come back).
// Unrolled for the tail (k = W-1), the head's start g_m on each later link m bounds
// the time T_l the tail passes link l:
//   T_l >= g_m + time(W - S(l,m) flits) + latencies of links l..m-1,
// where S(l,m) is the buffer space between them, as long as S(l,m) < W. So T_l is
// known — settled — once the head has started on a link m with S(l,m+1) >= W (the
// rest of the worm fits in the buffers it has reached), or has entered the NIC's
// receive buffer, which takes whole packets. Until then link l is held: nothing else
// crosses it, which is how a blocked worm holds every link it spans and blocking
// propagates back (the C104's wormhole routing, seed 003). When a link settles, the
// tail is known to pass it at T_l: the link is free from then, and the input buffer at
// its near end has lost the worm's tail, so its credits go back and the packet queued
// behind it may go.
//
// The buffer space counted is each buffer's whole size: a worm's head leaves a router
// only after everything ahead of it in that input buffer has left, so by the time its
// flits drain there, the buffer is its own. Settling never lands in the past: a link
// settles at the first head start whose bound it needs, which it then lies after.
//
// State lives in the links (WormHop, one per link: a worm's links are a list through
// them) and in the packet's slot, so nothing is allocated per packet.
#include <algorithm>
#include <limits>

#include "niclab/net/network.hpp"

namespace niclab::net {

namespace {
constexpr LinkId kNone = UINT32_MAX;
}

void Network::worm_advance(LinkId l, PacketHandle h, Time start, uint32_t credits) {
    PacketSlot& s = pool_[h];
    Worm& w = worm(h);
    Link& link = links_[l];
    const Transmission t = link.transmit(start, s.header, pool_.payload(h));
    stats_.retries += t.retries;
    if (t.corrupted) s.corrupted = true;
    if (tap_) tap_->transmitted(l, start, s.header, pool_.payload(h), s.out_vc, t);
    link.hold();

    WormHop& hop = worm_[l];
    hop.owner = h;
    hop.prev = w.head;
    hop.next = kNone;
    hop.vc = s.out_vc;
    hop.credits = credits;
    hop.min_tail = t.free_at;
    hop.bound = Time{};
    if (hop.prev != kNone) worm_[hop.prev].next = l;
    else w.tail = l;
    w.head = l;

    const bool eject = ends_[l].to_side == Side::Nic;
    if (!eject) {
        // An output buffer's stage adds no delay: the router's was paid at its input.
        s.eligible_at = t.head_arrival + (is_stage(ends_[l].to) ? Time{} : params_.router_delay);
        kernel_.schedule_at(s.eligible_at, [this, l, h] { arrive_at_router(l, h); });
    } else {
        // Before worm_settle schedules the tail's arrival; the head's event reads the
        // tail time that settling sets.
        schedule_head(l, h, t.head_arrival);
    }

    // What this start tells about the links behind, and which of them are settled.
    const int64_t wire = int64_t(s.header.length) + params_.link.overhead_bytes;
    const int64_t flit = params_.flit_bytes;
    const int64_t here = eject ? std::numeric_limits<int64_t>::max() / 2 : int64_t(link.credits_per_vc()) * flit;
    LinkId settled = here >= wire ? l : kNone;
    int64_t room = 0;  // buffer space from the link behind up to this one's near end
    Time latency{};
    for (LinkId p = hop.prev; p != kNone; p = worm_[p].prev) {
        room += int64_t(links_[p].credits_per_vc()) * flit;
        latency += links_[p].latency();
        if (room < wire) {
            WormHop& behind = worm_[p];
            behind.bound = std::max(behind.bound, start + link.wire_time(wire - room) + latency);
        }
        if (settled == kNone && room + here >= wire) settled = p;
        if (room >= wire) break;  // links further back were settled by earlier starts
    }
    if (settled != kNone) worm_settle(h, settled);
}

// The tail's passing is known for every held link from the worm's tail up to `upto`.
void Network::worm_settle(PacketHandle h, LinkId upto) {
    PacketSlot& s = pool_[h];
    Worm& w = worms_[h];
    for (LinkId l = w.tail;;) {
        WormHop& hop = worm_[l];
        const Time tail = std::max({hop.min_tail, hop.bound, s.tail_arrival});
        links_[l].release_at(tail);
        wake(l);
        if (w.tail_link != kNone) {
            // The tail has left the input buffer at the near end of l.
            const LinkId in = w.tail_link;
            const uint8_t vc = w.tail_vc;
            const uint32_t n = w.tail_credits;
            free_characters(in, s.header.length);
            kernel_.schedule_at(tail + links_[in].latency(), [this, in, vc, n] { credit_returned(in, vc, n); });
            const uint32_t rid = ends_[l].from;
            const uint32_t b = routers_[rid].buffer_index(ends_[in].to_port, vc);
            routers_[rid].ready_input(b, tail);
            kernel_.schedule_at(tail, [this, rid, b] {
                const int port = routers_[rid].head_port(b);
                if (port >= 0) try_send(routers_[rid].out_link(uint8_t(port)));
            });
        }
        w.tail_link = l;
        w.tail_vc = hop.vc;
        w.tail_credits = hop.credits;
        s.tail_arrival = tail + links_[l].latency();
        hop.owner = kNoPacket;
        const LinkId next = hop.next;
        if (l == upto) {
            w.tail = next;
            if (next != kNone) worm_[next].prev = kNone;
            else w.head = kNone;  // nothing held: the link may already be another worm's
            break;
        }
        l = next;
    }
    if (ends_[upto].to_side == Side::Nic) {
        w.tail_link = kNone;  // the NIC's receive buffer gives its credits back on delivery
        kernel_.schedule_at(s.tail_arrival, [this, upto, h] { arrive_at_nic(upto, h); });
    }
}

}  // namespace niclab::net
