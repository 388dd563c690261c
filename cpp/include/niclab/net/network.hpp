#pragma once
// The network: links, routers and the packet pool of one topology, driven by the
// simulation kernel, with one endpoint per node for the NIC to attach to.
//
// Switching (NetworkParams::switching) is virtual cut-through by default: a router may
// forward a packet router_delay after its head arrives, before its tail is in, once the
// next buffer has room for all of it (one credit = one packet buffer, or a flit when
// flit_bytes is set). Wormhole switching (wormhole.cpp) forwards the head once the
// next buffer has one flit free; buffers may be smaller than a packet, and a blocked
// packet holds every link it spans until its tail passes. Either way one packet
// crossing an idle network (with buffers that cover a hop's router delay) takes
//     routers × router_delay + links × link latency + one serialization,
// where links = hop_count + 2 (injection and ejection cables) and routers =
// hop_count + 1 on a mesh or fat tree, and links = 1, routers = 0 on a direct cable.
//
// Output buffers (wormhole only, NetworkParams::output_buffers; the STC104's): every
// router output port with a cable gets a buffer between the crossbar and the cable.
// It is modelled as a stage of its own: the router's crossbar feeds it over an
// internal link (no latency, no flow-control tokens, no bit errors, the cable's
// character rate), and a one-input router (no routing delay) sends from it over the
// cable. So a worm's head goes on into the output buffer when it has room, the cable
// drains it, the input buffer frees as the tail moves into the output buffer, and the
// wormhole rules below (a held link, buffer space counted up to the head) apply to
// the crossbar's path as to a cable. The router's arbiter per output (round-robin
// among its inputs, lowest vnet first) grants the way into the output buffer. Stages
// and their internal links are numbered after the topology's routers and cables, so
// those keep their ids.
//
// Virtual networks: each vnet has its own buffers and credits on every link, router
// input and NIC queue (combined with a torus's dateline channels: VC = vnet × 2 +
// dateline VC), and every arbiter — router outputs and the injection cable — serves
// the lowest vnet first. So congestion in vnet 0 can hold vnet 1 back, never the
// reverse, and each vnet on one path stays FIFO.
//
// Routing: the topology's table (or dimension order computed from coordinates, see
// MeshRouting), a random spine on the way up a fat tree for packets that ask, the
// first free spine with adaptive up-routing, or the packet's own source route,
// consumed a byte per router (PacketHeader::route_bytes).
//
// Everything is deterministic for a given topology, parameters, seed and traffic:
// all decisions are made in kernel events, which fire in (time, sequence) order,
// and random up-routes come from one seeded stream of the network.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "niclab/net/link.hpp"
#include "niclab/net/packet.hpp"
#include "niclab/net/packet_pool.hpp"
#include "niclab/net/packet_tap.hpp"
#include "niclab/net/router.hpp"
#include "niclab/net/topology.hpp"
#include "niclab/sim/kernel.hpp"
#include "niclab/sim/random.hpp"
#include "niclab/sim/stats.hpp"

namespace niclab::net {

// The NIC side of a node's network port.
class NetworkEndpoint {
public:
    virtual ~NetworkEndpoint() = default;
    // A packet has fully arrived; its payload is valid during the call only. Return
    // false when there is no receive buffer now: the network keeps the packet (and
    // those of its vnet behind it) and offers it again after the NIC calls
    // Network::endpoint_ready(node). Other vnets are still offered meanwhile.
    virtual bool deliver(const PacketView& packet) = 0;
    // The injection port has a credit again after inject() returned false.
    virtual void injection_ready() {}
    // Endpoints that answer true (asked when attached) are also told of each packet's
    // head: head_arrived() is called when its header characters (the link's
    // overhead_bytes, which lead the packet: a DS link's routing header and protocol
    // characters) have crossed the ejection cable, so at
    //     tail_at - serialization of the rest (payload and end token),
    // after retries of that cable; deliver() follows when the tail is in, at tail_at.
    // Heads come in order per vnet, a packet's only after every packet before it in
    // its vnet was delivered: one held behind a refused packet is announced when it
    // reaches the front (tail_at may then be past). The payload is valid during the
    // call, but its bytes cross the cable between now and tail_at: an endpoint must
    // not act on a byte before it is in. Return false when there is no room for the
    // packet now: as with deliver(), the network holds it (and its vnet behind it)
    // and announces it again after endpoint_ready(node).
    virtual bool wants_heads() const { return false; }
    virtual bool head_arrived(const PacketView& packet, Time tail_at) {
        (void)packet;
        (void)tail_at;
        return true;
    }
};

enum class Switching : uint8_t { VirtualCutThrough, Wormhole };

struct NetworkParams {
    LinkParams link;
    // Time from a packet's head arriving at a router to the router forwarding it
    // (routing, arbitration, crossbar). Assumption, not in the seeds: 50 ns.
    Time router_delay = Time::ns(50);
    // Packet buffers (credits) per router input port and virtual channel.
    // Assumption: 8, enough to cover a hop's credit round trip at full rate.
    uint32_t input_buffers = 8;
    // Flits of buffer per router output port and virtual channel, between the crossbar
    // and the cable (wormhole only); 0: none, the output goes straight onto the cable.
    uint32_t output_buffers = 0;
    // Packet buffers between the ejection cable and the NIC (the NIC's receive FIFO),
    // per vnet.
    uint32_t receive_buffers = 8;
    uint64_t seed = 0;
    // Largest payload a packet may carry, in bytes (1..4096): SeaStar's 64, StarT-X's
    // 96, a DS link's 4096. Also the "full packet" of link.payload_bytes_per_s.
    uint32_t max_payload = 64;
    // Virtual networks (priority classes), 1..kMaxVnets; vnet 0 has the highest priority.
    uint32_t vnets = 1;
    static constexpr uint32_t kMaxVnets = 4;
    // Flow-control unit. 0: one credit is one packet buffer (SeaStar). Otherwise
    // input_buffers and receive_buffers count flits of this many bytes, and a packet
    // takes its wire bytes (payload + link.overhead_bytes) in flits; switching is
    // virtual cut-through needs every buffer to hold the largest packet; wormhole
    // needs only the NIC's receive buffers to.
    uint32_t flit_bytes = 0;
    // Wormhole needs flit_bytes and a topology without dateline channels (no torus
    // wrap): a worm holds the whole cable, so a ring would deadlock. Virtual networks
    // keep their own buffers and priority, but a blocked worm holds the cable for every
    // vnet (flits of different vnets are not interleaved on one cable).
    Switching switching = Switching::VirtualCutThrough;
    // Adaptive up-routing (the C104's grouped adaptive routing, seed 003 L554): a packet
    // climbing a fat tree or Clos takes, when its header arrives, the first up-link of
    // the group that is free and has buffer room (starting from its table port), and
    // its table port when none is. Packets of one pair may then overtake each other.
    bool adaptive_up_routing = false;
    // Credits come back as times (virtual cut-through): a router counts the ones due when it
    // arbitrates, a NIC's transmit cable when it injects, and a return becomes an event only
    // while a packet waits for that output or the NIC was refused - the only time one does
    // anything. Each such event keeps the place in the order of events that it was given
    // when the credit was freed (sim::Kernel::reserve_key), so every time is the same as with
    // an event per credit per hop, which `credit_events` restores (to compare; wormhole
    // switching always uses it). On a bulk transfer this spares an event per packet at the
    // sender, whose credits come back while its NIC still has plenty.
    bool credit_events = false;
    // A NIC's packet that finds its transmit cable busy is sent at once, to start when the
    // cable frees, with the events a wake-up then would make (Network::sends_ahead says
    // when that is exact); and a NIC that knows now what it will inject later may inject
    // it now as of then (Network::inject_ahead). Off: it waits in the NIC's queue for the
    // cable's wake-up, and a NIC injects only at its time (to compare).
    bool send_ahead = true;
};

struct NetworkStats {
    uint64_t packets_injected = 0;
    uint64_t bytes_injected = 0;     // payload bytes
    uint64_t packets_delivered = 0;
    uint64_t bytes_delivered = 0;
    uint64_t injections_refused = 0; // inject() found no credit
    uint64_t deliveries_refused = 0; // deliver() returned false
    uint64_t heads_refused = 0;      // head_arrived() returned false
    uint64_t retries = 0;            // link-level retransmissions, all links
    uint64_t corrupted_delivered = 0; // packets delivered with a flipped bit (retry off)
    uint32_t max_buffer_occupancy = 0; // most packets seen in one input or receive buffer
    Time max_queueing{};             // longest wait of a packet for an output at one router
    sim::TimeStats latency_ns;       // injection to delivery (read in ns)
};

class Network {
public:
    Network(sim::Kernel& kernel, const TopologySpec& spec, const NetworkParams& params = {});
    Network(const Network&) = delete;
    Network& operator=(const Network&) = delete;

    const Topology& topology() const { return topology_; }
    const NetworkParams& params() const { return params_; }
    uint32_t nodes() const { return topology_.nodes(); }
    sim::Kernel& kernel() { return kernel_; }

    // The NIC of `node` receives its packets through `endpoint` (nullptr detaches;
    // packets then wait in the network).
    void attach(NodeId node, NetworkEndpoint* endpoint);
    // Hands a packet to the network at the current kernel time (its payload is
    // copied). False when the injection cable has no credit for its vnet; the NIC then
    // waits for injection_ready(). Throws NetworkError on a malformed packet (source,
    // destination, payload longer than max_payload, vnet).
    //
    // The link CRC (PacketHeader::link_crc) is the link layer's: the network computes it
    // while something looks at it - a capture (set_tap), or bit errors on some link,
    // whose retry checks it - and from the moment either starts, for the packets already
    // in flight too. Otherwise it is left 0 (CRCs nobody read were 4 % of a 1 B-8 MB
    // sweep). A NIC model must not depend on it: a real NIC's receive logic never sees
    // the link CRC, which the link layer checks and strips.
    bool inject(NodeId node, const PacketView& packet) { return inject_as_of(node, packet, kernel_.now()); }
    // inject() as of `at`, a time to come, done now: for a NIC that knows now that it will
    // inject `packet` then and that it injects nothing else before (a DMA engine whose
    // next packet's data is still streaming in), with the times and events injecting then
    // would give - an event per packet fewer. Only where the outcome is certain now: the
    // cable may send ahead (sends_ahead), nothing waits in the NIC's queue, the run goes
    // on to `at` (Kernel::run_end), and the cable's credits suffice already (until `at`
    // they only come back). Otherwise false, with nothing done: the NIC injects at `at`.
    bool inject_ahead(NodeId node, const PacketView& packet, Time at);
    // The NIC of `node` has receive buffers again: offer the packets held for it.
    void endpoint_ready(NodeId node);

    const NetworkStats& stats() const { return stats_; }
    const std::vector<Link>& links() const { return links_; }
    // Credits the sender of link l holds on `vc` now, the returns due by now counted
    // (Link::credits leaves out those not yet needed; see NetworkParams::credit_events).
    uint32_t credits(LinkId l, uint32_t vc);
    const Link& link(LinkId id) const { return links_[id]; }
    void set_bit_error_rate(LinkId id, double ber);
    // Fraction of `elapsed` during which the link was sending (retries included).
    double utilization(LinkId id, Time elapsed) const;
    LinkId injection_link(NodeId node) const { return nics_[node].tx_link; }
    // The network's kernel lane (sim::Kernel lanes): its cables' wake-ups and its packets'
    // arrivals at routers and NICs wait there, and the NICs' transmit engines put their own
    // events there too, so a bulk transfer's packets fire as one train, out of the heap,
    // while the cores sleep.
    sim::Kernel::Lane lane() const { return lane_; }
    LinkId ejection_link(NodeId node) const { return nics_[node].rx_link; }
    const Router& router(uint32_t id) const { return routers_[id]; }
    // Packets inside the network (queued, on a cable, or held for a NIC).
    std::size_t packets_in_flight() const { return pool_.live(); }

    // One end of a cable: a router's port (or, for an output buffer, the stage behind
    // the router port it serves: Router::port(0) names that port) or a node's NIC.
    struct LinkEnd {
        bool nic = false;
        uint32_t id = 0;  // node id, or router id (output-buffer stages after the topology's routers)
        uint8_t port = 0;
    };
    LinkEnd link_from(LinkId id) const { return {ends_[id].from_side == Side::Nic, ends_[id].from, ends_[id].from_port}; }
    LinkEnd link_to(LinkId id) const { return {ends_[id].to_side == Side::Nic, ends_[id].to, ends_[id].to_port}; }
    // The least delay with which an event of one node (or of no node: a router shared by
    // several nodes or by none) causes one of another, through this network
    // (sim::Kernel::set_lookahead): over the cables between two owners' parts, the least
    // of a cable's latency plus what must follow before the far end acts - the router
    // delay for a packet (the header for one at a NIC), and for the credit it took, the
    // shortest packet's serialization out of the router that frees it. Cores stop at
    // every event of no node, so behind a shared crossbar it is one hop, not the path
    // (the path's cables: cross_node_hops).
    // Zero (no lookahead) with wormhole switching, whose worms reach along several
    // cables at once, and with output-buffer stages, joined to their router without one.
    Time lookahead() const;
    // For each node, the other nodes it has a cable to (its router's or its NIC's), for
    // the kernel's neighbour bound (sim::Kernel::set_lookahead): a node's events reach
    // one that is not its neighbour over two cables at least. Empty when some part is of
    // no node (a shared switch: its events reach every node one cable after they fire)
    // or when there is no lookahead.
    std::vector<std::vector<uint32_t>> neighbours() const;
    // The fewest lookaheads between two nodes' parts (sim::Kernel::set_lookahead): 2 when
    // no cable joins two nodes' parts, every NIC cabled to parts of no node (a shared
    // crossbar: one node's doings reach another through it, a cable in and a cable out),
    // else 1.
    uint32_t cross_node_hops() const;
    // The least delay from an event of node n's router to anything at its NIC: the
    // cables between them (a packet's arrival, a credit back for one it sent). Zero where
    // there are no neighbours (above) or n has no router of its own. The kernel's router
    // delay (sim::Kernel::set_router_delay), for a NIC whose core sees none of the
    // network's state but through its own events.
    Time router_delay(NodeId n) const;
    // The other way: the least delay from anything node n's NIC does to its router (a
    // packet's head over the transmit cable, a credit back over the receive cable). Zero
    // where router_delay is. The kernel's NIC delay (sim::Kernel::set_nic_delay).
    Time nic_delay(NodeId n) const;
    // Packet observer (packet_tap.hpp), or nullptr; one at a time. The tap must stay
    // alive while set.
    void set_tap(PacketTap* tap);
    PacketTap* tap() const { return tap_; }

private:
    enum class Side : uint8_t { Router, Nic };
    struct LinkEnds {
        Side from_side, to_side;
        uint8_t from_port = 0, to_port = 0;
        uint32_t from = 0, to = 0;  // router id or node id
    };
    struct NicPort {
        NetworkEndpoint* endpoint = nullptr;
        bool wants_heads = false;       // the endpoint is told of heads (head_arrived)
        // The packet whose header has crossed the receive cable and whose tail has not
        // (one at a time: the cable is serial).
        PacketHandle crossing = kNoPacket;
        // Per vnet: the packet whose head was told and that is not delivered yet (heads
        // are told in order, each after the packets before it, so there is one at most).
        std::array<PacketHandle, NetworkParams::kMaxVnets> told{kNoPacket, kNoPacket, kNoPacket, kNoPacket};
        LinkId tx_link = 0;
        LinkId rx_link = 0;
        // Per vnet: injected, each holding a credit, waiting for the cable.
        std::array<PacketQueue, NetworkParams::kMaxVnets> tx_queue;
        // Per vnet: arrived, waiting for deliver() to accept.
        std::array<PacketQueue, NetworkParams::kMaxVnets> rx_buffer;
        uint32_t tx_queued = 0;         // over all vnets
        uint8_t delivery_blocked = 0;   // bit v: deliver() refused vnet v's head
        bool injection_blocked = false;
        bool delivering = false;
        bool ready_while_delivering = false;
    };

    LinkId add_link(Side from_side, uint32_t from, uint8_t from_port, Side to_side, uint32_t to,
                    uint8_t to_port, uint32_t vcs, uint32_t credits);
    LinkId add_link(Side from_side, uint32_t from, uint8_t from_port, Side to_side, uint32_t to,
                    uint8_t to_port, uint32_t vcs, uint32_t credits, const LinkParams& lp);
    // The output-buffer stage of every cabled router port (output_buffers > 0).
    void add_output_stages(const std::vector<std::vector<LinkId>>& out, uint32_t vcs);
    bool is_stage(uint32_t router) const { return router >= topology_routers_; }
    bool inject_as_of(NodeId node, const PacketView& packet, Time now);
    void check_injection(NodeId node, const PacketView& packet) const;  // throws what inject() refuses to take
    // Throws what check_injection found, naming it; returns for a good source route.
    [[gnu::noinline]] void refuse_injection(NodeId node, const PacketView& packet) const;
    // The checked packet, its credits taken, on its way as of `now`.
    void admit(NodeId node, const PacketView& packet, Time now, uint32_t cost);
    // A direct cable has no dateline, so its VCs are the vnets.
    uint8_t injection_vc(const PacketHeader& p) const {
        return uint8_t(routers_.empty() ? p.vnet : p.vnet * dateline_vcs_);
    }
    void try_send(LinkId l) { try_send(l, kernel_.now()); }
    void try_send(LinkId l, Time now);  // now: the kernel's, or a NIC's injection ahead
    void send(LinkId l, PacketHandle h, Time start, Time made);
    bool sends_ahead(LinkId l) const { return ahead_[l] && !kernel_.in_core_run(); }
    bool may_send_ahead(LinkId l) const;  // what of sends_ahead changes only with set_tap or attach
    void refresh_ahead(LinkId l) { ahead_[l] = may_send_ahead(l); }
    // An event of a packet's way on, in the network's lane, keyed as made at `made`.
    template <typename F>
    void schedule_made(Time at, Time made, F&& f, uint32_t node) {
        if (made > kernel_.now()) kernel_.schedule_reserved(at, kernel_.key_made_at(made), std::forward<F>(f), node, lane_);
        else kernel_.schedule_at(at, std::forward<F>(f), node, lane_);
    }
    void arrive_at_router(LinkId l, PacketHandle h);
    void arrive_at_nic(LinkId l, PacketHandle h);
    // The head of h starts its way in over the receive cable l at head_arrival: endpoints
    // that want heads hear of it once its header characters are across.
    // Inline for the common case (an endpoint that does not want heads: no call per packet).
    void schedule_head(LinkId l, PacketHandle h, Time head_arrival) {
        if (nics_[ends_[l].to].wants_heads) [[unlikely]] schedule_head_event(l, h, head_arrival);
    }
    void schedule_head_event(LinkId l, PacketHandle h, Time head_arrival);
    void head_at_nic(NodeId node, PacketHandle h);
    // Tells the endpoint of h's head unless it knows already; false if it refused.
    bool announce_head(NicPort& nic, PacketHandle h) { return !nic.wants_heads || tell_head(nic, h); }
    bool tell_head(NicPort& nic, PacketHandle h);
    void credit_returned(LinkId l, uint8_t vc, uint32_t n);
    // The receiver of l freed n credits of `vc`; they are back at the sender at `at`.
    void return_credits(LinkId l, uint8_t vc, uint32_t n, Time at);
    // Credits as times (NetworkParams::credit_events off): a return to a router's output
    // and the key of the event it would have been; `scheduled` once it is one.
    struct CreditReturn {
        Time at;
        sim::Kernel::EventKey key;
        uint32_t n;
        uint8_t vc;
        bool scheduled;
        // Unused: named so that a copy (drop_returns) moves two aligned 16-byte halves
        // rather than 30 bytes in two overlapping ones (a stall on store forwarding).
        uint16_t unused;
        // Its event fires after that of a return due at `t` with key `k`, of the same link
        // (so of the same node): sim::Kernel's order, in which seq's kByCore bit ranks first.
        bool after(Time t, sim::Kernel::EventKey k) const {
            if (at != t) return at > t;
            if (key.made != k.made) return key.made > k.made;
            return key.seq > k.seq;
        }
    };
    bool credits_as_times() const { return !params_.credit_events && !wormhole(); }
    // Someone waits for a credit of l: a request at the router's output, or a NIC whose
    // injection was refused.
    bool awaits_credit(LinkId l) const {
        const LinkEnds& e = ends_[l];
        return e.from_side == Side::Router ? routers_[e.from].requests(e.from_port) > 0 : nics_[e.from].injection_blocked;
    }
    // Credits of l came back: the router tries its output again, a refused NIC hears of it.
    void credits_back(LinkId l);
    // Counts the returns of l due by now: a prefix of them, as they are kept in the order
    // their events would fire (return_credits).
    void settle_credits(LinkId l);
    void fold_return(LinkId l, uint32_t i);
    // A packet waits for l: each return still on its way becomes the event it stands for.
    void watch_credits(LinkId l);
    void schedule_return(LinkId l, CreditReturn& c);
    void credit_due(LinkId l, uint64_t seq);
    void offer_packets(NodeId node);
    bool hand_over(NicPort& nic, NodeId node, uint32_t v, PacketHandle h, PacketQueue* q);
    void offer_later(NodeId node);
    uint8_t route(uint32_t router, const PacketHeader& h);
    void check_source_route(const PacketView& p) const;
    // Wormhole (wormhole.cpp): the head of h starts on l holding `credits` of it.
    void worm_advance(LinkId l, PacketHandle h, Time start, uint32_t credits);
    void worm_settle(PacketHandle h, LinkId upto);
    void wake(LinkId l);
    // The buffer at the far end of l freed a packet of `length` payload bytes: its
    // flow-control tokens go back over the reverse cable (character-coded links).
    void free_characters(LinkId l, uint32_t length) {
        links_[reverse_[l]].send_flow_control(kernel_.now(), links_[l].characters(length));
    }
    bool wormhole() const { return params_.switching == Switching::Wormhole; }
    // From now on every packet carries its link CRC (see inject()); those in flight get theirs.
    void keep_link_crcs();
    void note_occupancy(uint32_t size) {
        if (size > stats_.max_buffer_occupancy) stats_.max_buffer_occupancy = size;
    }

    sim::Kernel& kernel_;
    PacketTap* tap_ = nullptr;  // a capture, when one is open
    bool link_crcs_ = false;    // packets carry their link CRC (keep_link_crcs)
    NetworkParams params_;
    Topology topology_;
    std::vector<Link> links_;
    std::vector<LinkEnds> ends_;
    std::vector<LinkId> reverse_;  // per link: the cable the other way (flow-control tokens)
    std::vector<uint8_t> wakeup_pending_;  // per link: a try_send is scheduled for busy_until
    std::vector<uint8_t> ahead_;           // per link: may_send_ahead (read once a packet)
    // Per link, the credits on their way back (credits_as_times), in the order their events
    // would fire: a stretch of credit_returns_ with room for a return per packet its far
    // buffers hold, so that keeping them allocates nothing.
    struct Returns {
        uint32_t first = 0, size = 0, capacity = 0;
    };
    std::vector<Returns> returns_;
    std::vector<CreditReturn> credit_returns_;
    CreditReturn* returns_of(LinkId l) { return credit_returns_.data() + returns_[l].first; }
    // Takes out returns i .. i + n - 1, keeping the others' order (a few entries move: a
    // loop, no call to memmove).
    void drop_returns(LinkId l, uint32_t i, uint32_t n = 1) {
        CreditReturn* q = returns_of(l);
        const uint32_t size = returns_[l].size -= n;
        for (; i < size; ++i) q[i] = q[i + n];
    }
    std::vector<Router> routers_;
    std::vector<uint32_t> router_node_;  // the node whose router it is (sim::kNoNode: a switch of none or many)
    bool own_routers_ = false;           // every router is one node's (router_delay)
    Time shortest_out(uint32_t router) const;
    uint32_t node_of(Side side, uint32_t id) const { return side == Side::Nic ? id : router_node_[id]; }
    uint32_t from_node(LinkId l) const { return node_of(ends_[l].from_side, ends_[l].from); }
    uint32_t to_node(LinkId l) const { return node_of(ends_[l].to_side, ends_[l].to); }
    // Whose an event at a link's end is, for the kernel: a node's router's events are
    // router events (sim::Kernel::kRouterEvent), which reach its NIC only over a cable.
    uint32_t owner_of(Side side, uint32_t id) const {
        const uint32_t n = node_of(side, id);
        return side == Side::Router && n != sim::kNoNode ? n | sim::Kernel::kRouterEvent : n;
    }
    uint32_t from_owner(LinkId l) const { return owner_of(ends_[l].from_side, ends_[l].from); }
    uint32_t to_owner(LinkId l) const { return owner_of(ends_[l].to_side, ends_[l].to); }
    std::vector<NicPort> nics_;
    PacketPool pool_;
    NetworkStats stats_;
    uint32_t dateline_vcs_;  // VCs per vnet on router-to-router links: 2 on a torus
    uint32_t topology_routers_;  // routers_ beyond these are output-buffer stages
    CreditUnit unit_;
    sim::Random route_random_;
    sim::Kernel::Lane lane_;  // lane()
    // Wormhole, per link: the packet whose head crossed it and whose tail has not
    // (kNoPacket when free), and what is known of when that tail will pass.
    struct WormHop {
        PacketHandle owner = kNoPacket;
        LinkId prev = UINT32_MAX;  // the link behind in the same worm
        LinkId next = UINT32_MAX;  // the link ahead
        uint8_t vc = 0;
        uint32_t credits = 0;      // flits of the next buffer taken by the head
        Time min_tail{};           // head start + serialization (+ retries)
        Time bound{};              // latest constraint from the head's progress ahead
    };
    std::vector<WormHop> worm_;
    // Wormhole, per packet slot (apart from PacketSlot, which stays one cache line): the
    // links the packet holds run from tail to head; its tail still sits in the input
    // buffer fed by tail_link, holding tail_credits of it; `credits` were taken on the
    // link it waits for.
    struct Worm {
        LinkId head = UINT32_MAX;
        LinkId tail = UINT32_MAX;
        LinkId tail_link = UINT32_MAX;
        uint32_t tail_credits = 0;
        uint32_t credits = 0;
        uint8_t tail_vc = 0;
    };
    std::vector<Worm> worms_;
    Worm& worm(PacketHandle h) {
        if (h >= worms_.size()) worms_.resize(std::max<std::size_t>(h + 1, pool_.capacity()));
        return worms_[h];
    }
};

}  // namespace niclab::net
