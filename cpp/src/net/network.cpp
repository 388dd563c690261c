#include "niclab/net/network.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "niclab/net/network_error.hpp"
#include "niclab/net/routing.hpp"
#include "niclab/sim/activity.hpp"
#include "niclab/sim/copy_bytes.hpp"

namespace niclab::net {

Network::Network(sim::Kernel& kernel, const TopologySpec& spec, const NetworkParams& params)
    : kernel_(kernel),
      params_(params),
      topology_(spec),
      pool_(params.max_payload),
      dateline_vcs_(topology_.vcs()),
      topology_routers_(topology_.routers()),
      unit_{params.flit_bytes, params.link.overhead_bytes},
      route_random_(params.seed, "net.route"),
      lane_(kernel.new_lane()) {
    if (params.router_delay < Time{}) throw NetworkError("router delay must not be negative");
    if (params.max_payload == 0 || params.max_payload > PacketHeader::kMaxPayloadLimit)
        throw NetworkError("max_payload of " + std::to_string(params.max_payload) + " bytes outside 1..4096");
    if (params.vnets == 0 || params.vnets > NetworkParams::kMaxVnets)
        throw NetworkError("vnets = " + std::to_string(params.vnets) + " outside 1.." +
                           std::to_string(NetworkParams::kMaxVnets));
    if (params.output_buffers && !wormhole())
        throw NetworkError("output buffers of " + std::to_string(params.output_buffers) +
                           " flits are modelled with wormhole switching only");
    if (wormhole()) {
        if (params.flit_bytes == 0)
            throw NetworkError("wormhole switching counts buffers in flits: set flit_bytes");
        if (topology_.vcs() > 1)
            throw NetworkError("wormhole switching on a wrapped ring (torus) would deadlock: a worm holds the whole "
                               "cable, so dateline channels cannot break the cycle");
        const uint32_t need = unit_.cost(params.max_payload);
        if (params.receive_buffers < need)
            throw NetworkError("receive buffers of " + std::to_string(params.receive_buffers) +
                               " flits cannot hold a full packet of " + std::to_string(need) + " flits of " +
                               std::to_string(params.flit_bytes) + " bytes (the NIC takes whole packets)");
    } else if (params.flit_bytes) {
        const uint32_t need = unit_.cost(params.max_payload);
        if (params.input_buffers < need || params.receive_buffers < need)
            throw NetworkError("buffers of " + std::to_string(std::min(params.input_buffers, params.receive_buffers)) +
                               " flits cannot hold a full packet of " + std::to_string(need) + " flits of " +
                               std::to_string(params.flit_bytes) + " bytes (virtual cut-through)");
    }
    const uint32_t vcs = dateline_vcs_ * params.vnets;  // router inputs and router-to-router cables
    const uint32_t vnets = params.vnets;                // NIC receive side: no dateline there
    const uint32_t n_routers = topology_.routers();
    // With output buffers each cabled port leads to its stage (numbered in port order).
    uint32_t stages = 0;
    for (uint32_t r = 0; r < n_routers; ++r) {
        std::vector<PortInfo> ports = topology_.ports(r);
        if (params.output_buffers)
            for (PortInfo& p : ports)
                if (p.kind != PeerKind::None) {
                    p.kind = PeerKind::Router;
                    p.peer = n_routers + stages++;
                    p.peer_port = 0;
                }
        routers_.emplace_back(r, ports, vcs, dateline_vcs_, unit_, wormhole());
    }
    nics_.resize(topology_.nodes());

    // Lay the cables in a fixed order (routers by id and port, then NICs by node) so
    // link ids, and with them the per-link random streams, depend on the spec only.
    std::vector<std::vector<LinkId>> out(n_routers);
    for (uint32_t r = 0; r < n_routers; ++r) {
        out[r].assign(routers_[r].port_count(), UINT32_MAX);
        for (uint8_t p = 0; p < routers_[r].port_count(); ++p) {
            const PortInfo& info = topology_.ports(r)[p];
            if (info.kind == PeerKind::Router)
                out[r][p] = add_link(Side::Router, r, p, Side::Router, info.peer, info.peer_port, vcs,
                                     params.input_buffers);
        }
    }
    for (NodeId n = 0; n < topology_.nodes(); ++n) {
        if (n_routers == 0) {  // direct cables: each NIC's transmit cable is its pair's (n ^ 1) receive cable
            nics_[n].tx_link = add_link(Side::Nic, n, 0, Side::Nic, n ^ 1, 0, vnets, params.receive_buffers);
            nics_[n ^ 1].rx_link = nics_[n].tx_link;
            continue;
        }
        const uint32_t r = topology_.router_of(n);
        const uint8_t p = topology_.port_of(n);
        nics_[n].tx_link = add_link(Side::Nic, n, 0, Side::Router, r, p, vcs, params.input_buffers);
        nics_[n].rx_link = add_link(Side::Router, r, p, Side::Nic, n, 0, vnets, params.receive_buffers);
        out[r][p] = nics_[n].rx_link;
        routers_[r].set_links(p, nics_[n].tx_link, nics_[n].rx_link);
    }
    for (uint32_t r = 0; r < n_routers; ++r)
        for (uint8_t p = 0; p < routers_[r].port_count(); ++p) {
            const PortInfo& info = topology_.ports(r)[p];
            if (info.kind == PeerKind::Router) routers_[r].set_links(p, out[info.peer][info.peer_port], out[r][p]);
        }
    reverse_.assign(links_.size(), 0);
    for (NodeId n = 0; n < topology_.nodes(); ++n) {
        const LinkId back = n_routers == 0 ? nics_[n ^ 1].tx_link : nics_[n].rx_link;
        reverse_[nics_[n].tx_link] = back;
        reverse_[back] = nics_[n].tx_link;
    }
    for (uint32_t r = 0; r < n_routers; ++r)
        for (uint8_t p = 0; p < routers_[r].port_count(); ++p) {
            const PortInfo& info = topology_.ports(r)[p];
            if (info.kind == PeerKind::Router) reverse_[out[r][p]] = out[info.peer][info.peer_port];
        }
    if (params.output_buffers) add_output_stages(out, vcs);
    // A router with exactly one node is that node's (a SeaStar's own router); the
    // events of a switch shared by several, or of an output stage, are no node's.
    router_node_.assign(routers_.size(), sim::kNoNode);
    std::vector<uint32_t> attached(routers_.size(), 0);
    for (NodeId n = 0; n < topology_.nodes() && n_routers; ++n) {
        const uint32_t r = topology_.router_of(n);
        router_node_[r] = n;
        ++attached[r];
    }
    for (uint32_t r = 0; r < routers_.size(); ++r)
        if (attached[r] != 1) router_node_[r] = sim::kNoNode;
    own_routers_ = n_routers > 0 && !wormhole() && routers_.size() == topology_routers_ &&
                   std::count(router_node_.begin(), router_node_.end(), sim::kNoNode) == 0;
    wakeup_pending_.assign(links_.size(), 0);
    ahead_.assign(links_.size(), 0);
    for (LinkId l = 0; l < links_.size(); ++l) refresh_ahead(l);
    returns_.assign(links_.size(), {});
    uint32_t returns = 0;
    for (LinkId l = 0; l < links_.size(); ++l) {
        if (!credits_as_times()) continue;
        returns_[l].first = returns;
        returns_[l].capacity = links_[l].vcs() * (links_[l].credits_per_vc() / unit_.cost(0));
        returns += returns_[l].capacity;
    }
    credit_returns_.resize(returns);
    if (wormhole()) worm_.assign(links_.size(), WormHop{});

    // Every live packet holds the credits of some buffer, at least those of the
    // shortest packet (a flit, for a worm), so the pool never needs more slots than that allows.
    std::size_t buffers = 0;
    const uint32_t least = wormhole() ? 1 : unit_.cost(0);
    for (const Link& l : links_) buffers += std::size_t(l.vcs()) * (l.credits_per_vc() / least);
    pool_.reserve(buffers);
    if (wormhole()) worms_.resize(pool_.capacity());
    for (const Link& l : links_)
        if (l.bit_error_rate() > 0.0) link_crcs_ = true;
}

void Network::set_bit_error_rate(LinkId id, double ber) {
    links_[id].set_bit_error_rate(ber);
    if (ber > 0.0) keep_link_crcs();
}

void Network::set_tap(PacketTap* tap) {
    tap_ = tap;
    for (LinkId l = 0; l < links_.size(); ++l) refresh_ahead(l);
    if (tap) keep_link_crcs();
}

void Network::keep_link_crcs() {
    if (link_crcs_) return;
    link_crcs_ = true;
    // No link could corrupt a packet until now, so each one's bytes are as sent.
    pool_.for_each_live([this](PacketHandle h) { pool_[h].header.link_crc = compute_link_crc(pool_[h].header, pool_.payload(h)); });
}

LinkId Network::add_link(Side from_side, uint32_t from, uint8_t from_port, Side to_side, uint32_t to,
                         uint8_t to_port, uint32_t vcs, uint32_t credits) {
    return add_link(from_side, from, from_port, to_side, to, to_port, vcs, credits, params_.link);
}

LinkId Network::add_link(Side from_side, uint32_t from, uint8_t from_port, Side to_side, uint32_t to,
                         uint8_t to_port, uint32_t vcs, uint32_t credits, const LinkParams& lp) {
    const LinkId id = LinkId(links_.size());
    links_.emplace_back(id, lp, vcs, credits, params_.seed, params_.max_payload);
    ends_.push_back(LinkEnds{from_side, to_side, from_port, to_port, from, to});
    return id;
}

// Port p of router r, its cable `cable` and its stage s: r's port p now feeds s's port
// 0 over an internal link into the output buffer; s's port 1 sends over the cable.
void Network::add_output_stages(const std::vector<std::vector<LinkId>>& out, uint32_t vcs) {
    LinkParams internal = params_.link;
    internal.latency = Time{};
    internal.fct_bits = 0;
    internal.bit_error_rate = 0.0;
    for (uint32_t r = 0; r < topology_routers_; ++r)
        for (uint8_t p = 0; p < routers_[r].port_count(); ++p) {
            const PortInfo& orig = topology_.ports(r)[p];
            if (orig.kind == PeerKind::None) continue;
            const uint32_t s = routers_[r].port(p).peer;
            const LinkId cable = out[r][p];
            PortInfo in{PeerKind::Router, r, p, orig.dim, false};
            routers_.emplace_back(s, std::vector<PortInfo>{in, orig}, vcs, dateline_vcs_, unit_, true);
            const LinkId x = add_link(Side::Router, r, p, Side::Router, s, 0, vcs, params_.output_buffers, internal);
            reverse_.push_back(x);  // no flow-control tokens inside the switch
            ends_[cable].from = s;
            ends_[cable].from_port = 1;
            routers_[r].set_links(p, routers_[r].in_link(p), x);
            routers_[s].set_links(0, x, UINT32_MAX);
            routers_[s].set_links(1, UINT32_MAX, cable);
        }
}

void Network::attach(NodeId node, NetworkEndpoint* endpoint) {
    if (node >= nics_.size()) throw NetworkError("attach: node " + std::to_string(node) + " does not exist");
    nics_[node].endpoint = endpoint;
    nics_[node].wants_heads = endpoint && endpoint->wants_heads();
    refresh_ahead(nics_[node].rx_link);  // the cable into it: does its far end want heads?
    if (endpoint) endpoint_ready(node);
}

[[gnu::always_inline]] inline void Network::check_injection(NodeId node, const PacketView& packet) const {
    // One test for the packets a NIC injects, which are nearly always well formed; the
    // messages are built out of line (refuse_injection), off the packet path. Inlined into
    // both ways in (a call a packet was 0.85 % of the 1 B-8 MB sweep's host instructions).
    const bool fine = node < nics_.size() && packet.src == node && packet.dst < nics_.size() &&
                      packet.length <= params_.max_payload && packet.payload.size() == packet.length &&
                      packet.vnet < params_.vnets && (!routers_.empty() || packet.dst == (node ^ 1)) &&
                      !packet.route_bytes;
    if (!fine) [[unlikely]] refuse_injection(node, packet);
}

bool Network::inject_ahead(NodeId node, const PacketView& packet, Time at) {
    if (at <= kernel_.now() || at > kernel_.run_end() || node >= nics_.size()) return false;
    const NicPort& nic = nics_[node];
    if (!sends_ahead(nic.tx_link) || nic.tx_queued) return false;
    check_injection(node, packet);
    if (returns_[nic.tx_link].size) settle_credits(nic.tx_link);
    const uint32_t cost = unit_.cost(packet.length);
    Link& link = links_[nic.tx_link];
    const uint8_t vc = injection_vc(packet);
    if (link.credits(vc) < cost) return false;
    link.take_credit(vc, cost);
    admit(node, packet, at, cost);
    return true;
}

void Network::refuse_injection(NodeId node, const PacketView& packet) const {
    if (node >= nics_.size()) throw NetworkError("inject: node " + std::to_string(node) + " does not exist");
    if (packet.src != node)
        throw NetworkError("inject at node " + std::to_string(node) + " of a packet from " + std::to_string(packet.src));
    if (packet.dst >= nics_.size())
        throw NetworkError("inject: destination " + std::to_string(packet.dst) + " does not exist");
    if (packet.length > params_.max_payload)
        throw NetworkError("inject: payload of " + std::to_string(packet.length) + " bytes exceeds the network's " +
                           std::to_string(params_.max_payload));
    if (packet.payload.size() != packet.length)
        throw NetworkError("inject: length " + std::to_string(packet.length) + " but " +
                           std::to_string(packet.payload.size()) + " payload bytes given");
    if (packet.vnet >= params_.vnets)
        throw NetworkError("inject: vnet " + std::to_string(packet.vnet) + " on a network of " +
                           std::to_string(params_.vnets) + " vnets");
    if (routers_.empty() && packet.dst != (node ^ 1))
        throw NetworkError("inject: node " + std::to_string(node) + "'s direct cable ends at node " +
                           std::to_string(node ^ 1) + ", not " + std::to_string(packet.dst) +
                           (packet.dst == node ? " (a cable cannot loop a packet back to its sender)" : ""));
    if (packet.route_bytes) check_source_route(packet);
}

bool Network::inject_as_of(NodeId node, const PacketView& packet, Time now) {
    check_injection(node, packet);
    NicPort& nic = nics_[node];
    Link& link = links_[nic.tx_link];
    const uint8_t vc = injection_vc(packet);
    uint32_t cost = unit_.cost(packet.length);
    // A worm's head needs one flit of the first router's buffer; a NIC on the other
    // end of the cable takes whole packets.
    const bool worm_head_only = wormhole() && !routers_.empty();
    if (returns_[nic.tx_link].size) settle_credits(nic.tx_link);
    if (link.credits(vc) < (worm_head_only ? 1 : cost)) {
        nic.injection_blocked = true;
        ++stats_.injections_refused;
        if (returns_[nic.tx_link].size) watch_credits(nic.tx_link);  // the first one back tells the NIC
        return false;
    }
    if (worm_head_only) cost = std::min(cost, link.credits(vc));
    link.take_credit(vc, cost);
    admit(node, packet, now, cost);
    return true;
}

void Network::admit(NodeId node, const PacketView& packet, Time now, uint32_t cost) {
    NicPort& nic = nics_[node];
    const LinkId l = nic.tx_link;
    const uint8_t vc = injection_vc(packet);
    const PacketHandle h = pool_.allocate();
    PacketSlot& slot = pool_[h];
    slot.header = packet;
    // One value serves every hop unless a source route is consumed on the way.
    slot.header.link_crc = link_crcs_ ? compute_link_crc(packet) : 0;
    slot.stripped = 0;
    sim::copy_bytes(pool_.payload(h).data(), packet.payload.data(), packet.payload.size());
    slot.injected_at = now;
    slot.eligible_at = now;
    slot.tail_arrival = Time{};
    slot.out_vc = vc;
    slot.corrupted = false;
    ++stats_.packets_injected;
    stats_.bytes_injected += packet.length;
    if (tap_) tap_->injected(l, slot.injected_at, slot.header, pool_.payload(h), vc);
    if (wormhole()) {
        worm(h) = Worm{UINT32_MAX, UINT32_MAX, UINT32_MAX, 0, cost, 0};
    } else if (nic.tx_queued == 0) {
        // Nothing queued before it: what try_send would do with it, without the queue.
        Link& link = links_[l];
        if (link.idle(now)) return send(l, h, now, now);
        if (sends_ahead(l)) return send(l, h, link.busy_until(), link.busy_until());
    }
    nic.tx_queue[packet.vnet].push(pool_, h);
    ++nic.tx_queued;
    try_send(l, now);
}

// Starts the next transmission on link l if it is free, or makes sure someone comes
// back when it is. Called whenever a packet may have become sendable on l.
void Network::try_send(LinkId l, Time now) {
    Link& link = links_[l];
    const LinkEnds& e = ends_[l];
    if (e.from_side == Side::Nic) {
        NicPort& nic = nics_[e.from];
        if (nic.tx_queued == 0) return;
        if (link.idle(now)) {
            uint32_t v = 0;  // the injection cable serves the highest-priority vnet first
            while (nic.tx_queue[v].empty()) ++v;
            --nic.tx_queued;
            const PacketHandle h = nic.tx_queue[v].pop(pool_);
            if (wormhole()) worm_advance(l, h, now, worm(h).credits);
            else send(l, h, now, now);
        }
        // The cable is busy: with one vnet nothing can pass the queue's first, so it goes
        // now, to start when the cable frees, with the events a wake-up then would make
        // (an event per packet of a bulk transfer fewer).
        while (nic.tx_queued > 0 && sends_ahead(l)) {
            --nic.tx_queued;
            const Time start = link.busy_until();
            send(l, nic.tx_queue[0].pop(pool_), start, start);
        }
        if (nic.tx_queued == 0) return;
    } else {
        Router& r = routers_[e.from];
        if (r.requests(e.from_port) == 0) return;
        if (returns_[l].size) watch_credits(l);
        if (link.idle(now)) {
            const int b = r.arbitrate(e.from_port, link, now);
            // Every requester waits for a credit (its return retries: credit_due()) or, with
            // wormhole switching, for an earlier tail to leave its buffer (worm_settle() retries).
            if (b < 0) return;
            const PacketHandle h = r.dequeue(pool_, uint32_t(b));
            PacketSlot& slot = pool_[h];
            if (wormhole()) {
                const uint32_t need = unit_.cost(slot.header.length);
                const uint32_t take = e.to_side == Side::Nic ? need : std::min(need, link.credits(slot.out_vc));
                link.take_credit(slot.out_vc, take);
                stats_.max_queueing = std::max(stats_.max_queueing, now - slot.eligible_at);
                r.hold_input(uint32_t(b));  // the tail is still coming through it
                worm_advance(l, h, now, take);
                if (r.requests(e.from_port) == 0) return;
                if (!link.held()) wake(l);
                return;
            }
            link.take_credit(slot.out_vc, unit_.cost(slot.header.length));
            // It came in one route byte longer if this router stripped one (every
            // router on a source route does).
            const uint32_t length_in = slot.header.length + (slot.stripped ? 1 : 0);
            const uint32_t cost = unit_.cost(length_in);
            // Cut-through may not outrun the packet's own tail on the way in.
            const Time ser = link.serialization(slot.header.length);
            const Time start = std::max(now, slot.tail_arrival - ser);
            stats_.max_queueing = std::max(stats_.max_queueing, now - slot.eligible_at);
            send(l, h, start, now);
            // The input buffer is free once the tail has left; the credit travels back
            // over the reverse cable.
            const LinkId in = r.in_link(r.buffer_port(uint32_t(b)));
            const uint8_t vc = r.buffer_vc(uint32_t(b));
            free_characters(in, length_in);
            return_credits(in, vc, cost, link.busy_until() + links_[in].latency());
            const int next_port = r.head_port(uint32_t(b));
            if (next_port >= 0) try_send(r.out_link(uint8_t(next_port)));
        }
        if (r.requests(e.from_port) == 0) return;
    }
    // Someone still waits for this cable: come back when it is free (a cable a worm
    // holds is woken when its tail's passing is known: worm_settle()).
    if (!link.held()) wake(l);
}

void Network::wake(LinkId l) {
    if (wakeup_pending_[l]) return;
    wakeup_pending_[l] = 1;
    kernel_.schedule_at(links_[l].busy_until(), [this, l] {
        wakeup_pending_[l] = 0;
        try_send(l);
    }, from_owner(l), lane_);
}

// The conditions under which a NIC's packet on a busy cable is sent ahead (try_send): one
// vnet (else a later packet of a higher one would pass it), virtual cut-through, no
// flow-control tokens (they would come before it on the cable), no head events at the far
// NIC (a DS link's) and no capture (which sees transmissions in the order they start); and
// in an event, not a core's run (kernel.hpp: key_made_at).
bool Network::may_send_ahead(LinkId l) const {
    return params_.send_ahead && params_.vnets == 1 && !wormhole() && !tap_ && !links_[l].sends_flow_control() &&
           !(ends_[l].to_side == Side::Nic && nics_[ends_[l].to].wants_heads);
}

// Sends h on l from `start`; its events on the way are keyed as made at `made` (now, or
// for a packet sent ahead the time a wake-up would have sent it).
void Network::send(LinkId l, PacketHandle h, Time start, Time made) {
    PacketSlot& slot = pool_[h];
    const Transmission t = links_[l].transmit(start, slot.header, pool_.payload(h));
    stats_.retries += t.retries;
    if (t.corrupted) slot.corrupted = true;
    if (tap_) tap_->transmitted(l, start, slot.header, pool_.payload(h), slot.out_vc, t);
    slot.tail_arrival = t.tail_arrival;
    if (ends_[l].to_side == Side::Nic) {
        schedule_head(l, h, t.head_arrival);  // before the tail's event: it fires first on a tie
        schedule_made(t.tail_arrival, made, [this, l, h] { arrive_at_nic(l, h); }, to_node(l));
    } else {
        slot.eligible_at = t.head_arrival + params_.router_delay;
        schedule_made(slot.eligible_at, made, [this, l, h] { arrive_at_router(l, h); }, to_owner(l));
    }
}

void Network::arrive_at_router(LinkId l, PacketHandle h) {
    const LinkEnds& e = ends_[l];
    Router& r = routers_[e.to];
    PacketSlot& slot = pool_[h];
    const uint8_t in_vc = slot.out_vc;
    if (is_stage(e.to)) {
        slot.out_port = 1;  // an output buffer has one way out: its cable
    } else if (slot.header.route_bytes) {
        // The router takes the leading route byte off the packet, as a Myrinet switch
        // does; the link CRC then covers what is left.
        slot.out_port = pool_.payload(h)[0];
        ++slot.stripped;
        --slot.header.length;
        --slot.header.route_bytes;
        if (link_crcs_) slot.header.link_crc = compute_link_crc(slot.header, pool_.payload(h));
    } else {
        slot.out_port = route(e.to, slot.header);
    }
    const PortInfo& out = r.port(slot.out_port);
    // VCs of one vnet are consecutive; the NIC receive side has no dateline VCs.
    const uint8_t vnet = slot.header.vnet;
    if (out.kind == PeerKind::Node) {
        slot.out_vc = vnet;
    } else {
        const uint8_t base = uint8_t(vnet * dateline_vcs_);
        slot.out_vc = uint8_t(base + select_vc(r.port(e.to_port), uint8_t(in_vc - base), out));
    }
    const uint32_t b = r.buffer_index(e.to_port, in_vc);
    const bool at_head = r.enqueue(pool_, b, h);
    note_occupancy(r.input(b).size());
    if (at_head) try_send(r.out_link(slot.out_port));
}

// A source route must lead, port by connected port, from the sender's router to the
// destination's NIC port, ending there: a wrong byte would otherwise surface deep in
// a run as a packet at a port with no cable.
void Network::check_source_route(const PacketView& p) const {
    auto fail = [&](const std::string& what) {
        throw NetworkError("inject: source route of " + std::to_string(p.route_bytes) + " bytes from " +
                           std::to_string(p.src) + " to " + std::to_string(p.dst) + ": " + what);
    };
    if (routers_.empty()) fail("a direct cable has no router to read it");
    if (p.route_bytes > p.length) fail("longer than the payload of " + std::to_string(p.length) + " bytes");
    uint32_t r = topology_.router_of(p.src);
    for (uint32_t i = 0; i < p.route_bytes; ++i) {
        const uint8_t port = p.payload[i];
        const auto& ports = topology_.ports(r);
        if (port >= ports.size() || ports[port].kind == PeerKind::None)
            fail("byte " + std::to_string(i) + " names port " + std::to_string(port) + " of router " +
                 std::to_string(r) + ", which has no cable");
        if (ports[port].kind == PeerKind::Node) {
            if (ports[port].peer != p.dst || i + 1 != p.route_bytes)
                fail("byte " + std::to_string(i) + " leaves the network at node " + std::to_string(ports[port].peer));
            return;
        }
        r = ports[port].peer;
    }
    fail("ends at router " + std::to_string(r) + " before reaching the destination");
}

// The output port toward the packet's destination: the table's, except on the way up
// a fat tree, where a random up-route packet takes any of the equivalent up ports and
// adaptive routing the first free one.
uint8_t Network::route(uint32_t router, const PacketHeader& h) {
    const uint8_t port = topology_.route(router, h.dst);
    if (!h.random_up_route && !params_.adaptive_up_routing) return port;
    const PortRange up = topology_.up_ports(router);
    if (up.count < 2 || port < up.first || port >= up.first + up.count) return port;
    if (h.random_up_route) return uint8_t(up.first + route_random_.below(up.count));
    const Time now = kernel_.now();
    const uint8_t vc = uint8_t(h.vnet * dateline_vcs_);
    for (uint32_t i = 0; i < up.count; ++i) {
        const uint8_t p = uint8_t(up.first + (port - up.first + i) % up.count);
        const LinkId id = routers_[router].out_link(p);
        const Link& l = links_[id];
        if (l.idle(now) && credits(id, vc) > 0 && routers_[router].requests(p) == 0) return p;
    }
    return port;
}

void Network::schedule_head_event(LinkId l, PacketHandle h, Time head_arrival) {
    const NodeId node = ends_[l].to;
    kernel_.schedule_at(head_arrival + links_[l].header_time(), [this, node, h] { head_at_nic(node, h); }, node, lane_);
}

void Network::head_at_nic(NodeId node, PacketHandle h) {
    NicPort& nic = nics_[node];
    nic.crossing = h;
    if (!(nic.delivery_blocked & (1u << pool_[h].header.vnet))) offer_packets(node);
}

bool Network::tell_head(NicPort& nic, PacketHandle h) {
    const PacketSlot& slot = pool_[h];
    PacketHandle& told = nic.told[slot.header.vnet];
    if (told == h) return true;
    if (!nic.endpoint->head_arrived(PacketView(slot.header, pool_.payload(h)), slot.tail_arrival)) {
        ++stats_.heads_refused;
        return false;
    }
    told = h;
    return true;
}

void Network::arrive_at_nic(LinkId l, PacketHandle h) {
    const NodeId node = ends_[l].to;
    NicPort& nic = nics_[node];
    if (nic.crossing == h) nic.crossing = kNoPacket;
    if (tap_) tap_->arrived(l, kernel_.now(), pool_[h].header, pool_.payload(h), pool_[h].corrupted);
    const uint8_t vnet = pool_[h].header.vnet;
    PacketQueue& q = nic.rx_buffer[vnet];
    // The usual case, one vnet and nothing held: what offer_packets would do, without the buffer.
    if (params_.vnets == 1 && q.empty() && !nic.delivery_blocked && !nic.delivering && nic.crossing == kNoPacket) {
        note_occupancy(1);
        nic.delivering = true;
        hand_over(nic, node, 0, h, nullptr);
        nic.delivering = false;
        if (nic.delivery_blocked && nic.ready_while_delivering) offer_later(node);
        return;
    }
    q.push(pool_, h);
    note_occupancy(q.size());
    if (!(nic.delivery_blocked & (1u << vnet))) offer_packets(node);
}

void Network::offer_packets(NodeId node) {
    NicPort& nic = nics_[node];
    if (nic.delivering) return;  // deliver() is on the stack: its loop picks this up
    nic.delivering = true;
    for (uint32_t v = 0; v < params_.vnets; ++v) {
        PacketQueue& q = nic.rx_buffer[v];
        if (nic.delivery_blocked & (1u << v)) continue;
        while (!q.empty() && hand_over(nic, node, v, q.front(), &q)) {
        }
        // The packet on the cable whose head is in, once every packet before it is delivered.
        const PacketHandle c = nic.crossing;
        if (c != kNoPacket && q.empty() && pool_[c].header.vnet == v && !(nic.delivery_blocked & (1u << v))) {
            nic.ready_while_delivering = false;
            if (!nic.endpoint || !announce_head(nic, c)) nic.delivery_blocked |= uint8_t(1u << v);
        }
    }
    nic.delivering = false;
    if (nic.delivery_blocked && nic.ready_while_delivering) offer_later(node);
}

// Packet h of vnet v to the NIC: false if it refused (v is blocked then). Taken, it
// leaves q (the NIC's receive buffer it is first of; none if it came straight from the
// cable), its buffer's credits go back, and its slot is free.
bool Network::hand_over(NicPort& nic, NodeId node, uint32_t v, PacketHandle h, PacketQueue* q) {
    PacketSlot& slot = pool_[h];
    auto hold = [&] {  // refused: v waits, and h with it in the buffer
        nic.delivery_blocked |= uint8_t(1u << v);
        if (!q) nic.rx_buffer[v].push(pool_, h);
        return false;
    };
    nic.ready_while_delivering = false;
    if (nic.endpoint && !announce_head(nic, h)) return hold();
    if (!nic.endpoint || !nic.endpoint->deliver(PacketView(slot.header, pool_.payload(h)))) {
        ++stats_.deliveries_refused;
        return hold();
    }
    if (q) q->pop(pool_);
    if (nic.told[v] == h) nic.told[v] = kNoPacket;
    ++stats_.packets_delivered;
    stats_.bytes_delivered += slot.header.length;
    stats_.corrupted_delivered += slot.corrupted ? 1 : 0;
    stats_.latency_ns.add(kernel_.now() - slot.injected_at);
    if (sim::ActivityLog* log = kernel_.activity()) log->record(sim::Activity::Network, node, slot.injected_at, kernel_.now(), 0, slot.header.src);
    const uint32_t cost = unit_.cost(slot.header.length);
    const LinkId rx = nic.rx_link;
    free_characters(rx, slot.header.length);
    pool_.release(h);
    return_credits(rx, uint8_t(v), cost, kernel_.now() + links_[rx].latency());
    return true;
}

// The NIC refused but said "ready" from inside deliver(): offer again in a fresh event
// rather than recursing.
void Network::offer_later(NodeId node) {
    kernel_.schedule_in(Time{}, [this, node] { endpoint_ready(node); }, node);
}

void Network::endpoint_ready(NodeId node) {
    if (node >= nics_.size()) throw NetworkError("endpoint_ready: node " + std::to_string(node) + " does not exist");
    NicPort& nic = nics_[node];
    if (nic.delivering) {
        nic.ready_while_delivering = true;
        return;
    }
    nic.delivery_blocked = 0;
    offer_packets(node);
}

void Network::credit_returned(LinkId l, uint8_t vc, uint32_t n) {
    links_[l].return_credit(vc, n);
    credits_back(l);
}

void Network::credits_back(LinkId l) {
    const LinkEnds& e = ends_[l];
    if (e.from_side == Side::Router) {
        try_send(l);
        return;
    }
    NicPort& nic = nics_[e.from];
    if (nic.injection_blocked) {
        nic.injection_blocked = false;
        if (nic.endpoint) nic.endpoint->injection_ready();
    }
}

void Network::return_credits(LinkId l, uint8_t vc, uint32_t n, Time at) {
    if (!credits_as_times()) {
        kernel_.schedule_at(at, [this, l, vc, n] { credit_returned(l, vc, n); }, from_owner(l));
        return;
    }
    Returns& r = returns_[l];
    if (r.size == r.capacity)  // a credit is in one return at most: never
        throw std::logic_error("network: link " + std::to_string(l) + " has more credits on their way back than its far buffers hold");
    // In the order the returns' events would fire: a buffer that frees its packets in
    // order (a NIC's, or a router input feeding one output) returns them in order, so
    // this one nearly always goes last.
    const sim::Kernel::EventKey key = kernel_.reserve_key();
    CreditReturn* q = returns_of(l);
    uint32_t i = r.size++;
    for (; i > 0 && q[i - 1].after(at, key); --i) q[i] = q[i - 1];
    // Field by field: a record built on the stack and copied in was read back whole
    // before its fields were stored (a stall on store forwarding: most of this function's
    // time in a bulk transfer).
    CreditReturn& c = q[i];
    c.at = at;
    c.key = key;
    c.n = n;
    c.vc = vc;
    c.scheduled = false;
    c.unused = 0;
    if (awaits_credit(l)) schedule_return(l, c);
}

// A return is due once the event it stands for would have fired (a scheduled one has,
// and took itself off: credit_due). Kept in that order, the due ones lead.
void Network::settle_credits(LinkId l) {
    CreditReturn* q = returns_of(l);
    Returns& r = returns_[l];
    const uint32_t node = from_node(l);
    uint32_t due = 0;
    for (; due < r.size && kernel_.passed(q[due].at, q[due].key, node); ++due) links_[l].return_credit(q[due].vc, q[due].n);
    if (due) drop_returns(l, 0, due);
}

// Every request for a router's output goes through try_send when it appears, and every
// refused injection through inject, so each return whose event would find one waiting is
// scheduled by the time it is due; the others' events would have found no one waiting and
// done nothing but count the credit.
void Network::watch_credits(LinkId l) {
    settle_credits(l);
    CreditReturn* q = returns_of(l);
    for (uint32_t i = 0; i < returns_[l].size; ++i)
        if (!q[i].scheduled) schedule_return(l, q[i]);
}

void Network::schedule_return(LinkId l, CreditReturn& c) {
    c.scheduled = true;
    const uint64_t seq = c.key.seq;
    kernel_.schedule_reserved(c.at, c.key, [this, l, seq] { credit_due(l, seq); }, from_owner(l));
}

// Return i of link l has come back: its credits count, its record goes.
void Network::fold_return(LinkId l, uint32_t i) {
    const CreditReturn& c = returns_of(l)[i];
    links_[l].return_credit(c.vc, c.n);
    drop_returns(l, i);
}

uint32_t Network::credits(LinkId l, uint32_t vc) {
    if (l >= links_.size())
        throw NetworkError("credits: link " + std::to_string(l) + " does not exist (" + std::to_string(links_.size()) +
                           " links)");
    if (vc >= links_[l].vcs())
        throw NetworkError("credits: link " + std::to_string(l) + " has " + std::to_string(links_[l].vcs()) +
                           " virtual channels, not a channel " + std::to_string(vc));
    settle_credits(l);
    return links_[l].credits(vc);
}

// credit_returned(), for a return kept as a time.
void Network::credit_due(LinkId l, uint64_t seq) {
    CreditReturn* q = returns_of(l);
    for (uint32_t i = 0; i < returns_[l].size; ++i)
        if (q[i].key.seq == seq) {
            fold_return(l, i);
            break;
        }
    credits_back(l);
}

// Every event one owner (a node, or no node) causes for another crosses a cable, and
// takes longer than the cable's latency: a packet is routed a router delay after its
// head is in (at a NIC, its header characters cross first), and the credit for the
// buffer it took goes back only when it has left that buffer - from a router, once it
// is on a cable out, so after a serialization of the shortest packet at least (from a
// NIC, on delivery, at once). The slower of the two paths bounds nothing, the faster
// everything: on SeaStar's cables, 10 ns of latency and the 7.4 ns of a 0-byte
// packet's 26 bytes, the credit's 17.4 ns. Cores that stop less often run the same
// instructions at the same times (the kernel checks every cross-node event against it).
Time Network::lookahead() const {
    if (wormhole() || routers_.size() != topology_routers_) return Time{};
    Time least = Time::max();
    for (LinkId l = 0; l < links_.size(); ++l) {
        if (from_node(l) == to_node(l)) continue;
        const Link& link = links_[l];
        const bool router = ends_[l].to_side == Side::Router;
        const Time packet = link.latency() + (router ? params_.router_delay : link.header_time());
        const Time credit = link.latency() + (router ? shortest_out(ends_[l].to) : Time{});
        least = std::min({least, packet, credit});
    }
    return least == Time::max() ? Time{} : least;
}

std::vector<std::vector<uint32_t>> Network::neighbours() const {
    if (lookahead() == Time{} || std::count(router_node_.begin(), router_node_.end(), sim::kNoNode)) return {};
    std::vector<std::vector<uint32_t>> out(nodes());
    for (LinkId l = 0; l < links_.size(); ++l) {
        const uint32_t a = from_node(l), b = to_node(l);
        if (a == b) continue;
        for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}})
            if (std::find(out[x].begin(), out[x].end(), y) == out[x].end()) out[x].push_back(y);
    }
    return out;
}

uint32_t Network::cross_node_hops() const {
    for (LinkId l = 0; l < links_.size(); ++l) {
        const uint32_t a = from_node(l), b = to_node(l);
        if (a != b && a != sim::kNoNode && b != sim::kNoNode) return 1;
    }
    return 2;
}

Time Network::router_delay(NodeId n) const {
    if (n >= nics_.size() || !own_routers_) return Time{};
    // A packet's head is in a cable and its header later (the head event; the tail's
    // later still); a credit for the NIC's packet goes back once that packet is on a
    // cable out, so a serialization of the shortest packet and a cable later at least.
    const Link& rx = links_[nics_[n].rx_link];
    const Link& tx = links_[nics_[n].tx_link];
    return std::min(rx.latency() + rx.header_time(), tx.latency() + shortest_out(topology_.router_of(n)));
}

Time Network::nic_delay(NodeId n) const {
    if (n >= nics_.size() || !own_routers_) return Time{};
    // A packet's head reaches the router a cable after it leaves (send: arrive_at_router
    // a router delay later still); a credit for a packet the NIC took, a cable after.
    return std::min(links_[nics_[n].tx_link].latency() + params_.router_delay, links_[nics_[n].rx_link].latency());
}

// The soonest a packet can leave router r: the shortest packet's serialization on its
// quickest cable out (a credit for the buffer a packet held goes back no sooner).
Time Network::shortest_out(uint32_t r) const {
    Time least = Time::max();
    for (uint8_t p = 0; p < routers_[r].port_count(); ++p)
        if (const LinkId out = routers_[r].out_link(p); out != UINT32_MAX) least = std::min(least, links_[out].serialization(0));
    return least;
}

double Network::utilization(LinkId id, Time elapsed) const {
    if (elapsed <= Time{}) return 0.0;
    return double(links_[id].stats().busy.ps()) / double(elapsed.ps());
}

}  // namespace niclab::net
