#pragma once
// A SeaStar-style router: input buffers per port and virtual channel, a routing
// table lookup (the Topology's), and per output port an arbiter over the input
// buffers whose head packet wants that port: strict priority to the lower virtual
// network, round-robin within one. Input-queued with head-of-line
// blocking per buffer, as a FIFO input buffer is. The Network drives it in time;
// this class holds the state and makes the decisions.
#include <bit>
#include <cstdint>
#include <vector>

#include "niclab/net/link.hpp"
#include "niclab/net/packet_pool.hpp"
#include "niclab/net/topology.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::net {

class Router {
public:
    // vcs = virtual networks × dateline_vcs; a buffer's VC is vnet × dateline_vcs + dateline VC.
    // wormhole: a head needs one flit of credit to move on to another router (the
    // NIC port still takes whole packets), and an input buffer a head left stays busy
    // until that packet's tail has left it (hold_input / ready_input).
    Router(uint32_t id, const std::vector<PortInfo>& ports, uint32_t vcs, uint32_t dateline_vcs = 1,
           CreditUnit unit = {}, bool wormhole = false);

    uint32_t id() const { return id_; }
    uint32_t port_count() const { return uint32_t(ports_.size()); }
    uint32_t vcs() const { return vcs_; }
    const PortInfo& port(uint8_t p) const { return ports_[p].info; }

    // The cable arriving at / leaving port p (set by the Network when it lays links).
    LinkId in_link(uint8_t p) const { return ports_[p].in_link; }
    LinkId out_link(uint8_t p) const { return ports_[p].out_link; }
    void set_links(uint8_t p, LinkId in, LinkId out) { ports_[p].in_link = in; ports_[p].out_link = out; }

    uint32_t buffer_index(uint8_t p, uint8_t vc) const { return p * vcs_ + vc; }
    uint8_t buffer_port(uint32_t buffer) const { return uint8_t(buffer / vcs_); }
    uint8_t buffer_vc(uint32_t buffer) const { return uint8_t(buffer % vcs_); }
    const PacketQueue& input(uint32_t buffer) const { return inputs_[buffer].queue; }

    // Queues packet h, whose routing decision (out_port, out_vc) is made, in input
    // buffer b. Returns true when it is at the head, i.e. now requests its output.
    bool enqueue(PacketPool& pool, uint32_t b, PacketHandle h) {
        Input& in = inputs_[b];
        in.queue.push(pool, h);
        if (in.queue.size() > 1) return false;
        set_head(b, pool[h]);
        return true;
    }
    // Takes the head of buffer b (it won arbitration). The next packet, if any,
    // becomes the head and requests its own output: see head_port().
    PacketHandle dequeue(PacketPool& pool, uint32_t b) {
        Input& in = inputs_[b];
        Port& was = ports_[in.head_port];
        --was.requests;
        was.requesters &= ~bit(b);
        const PacketHandle h = in.queue.pop(pool);
        if (in.queue.empty()) in.head_port = kNoHead;
        else set_head(b, pool[in.queue.front()]);
        return h;
    }
    // Output requested by the head of buffer b, or -1 when it is empty.
    int head_port(uint32_t b) const { return inputs_[b].head_port == kNoHead ? -1 : inputs_[b].head_port; }

    // Grant for output port `out`: among the input buffers whose head packet is
    // routed to `out` and whose output VC has its credits on `link`, the lowest virtual
    // network wins, and within it the next buffer after the last winner (round-robin).
    // Returns the buffer index, or -1. Reads only the router's own head cache, not
    // the packets, because this runs for every packet at every hop.
    // An input still draining an earlier worm's tail (ready_at > now) does not compete.
    int arbitrate(uint8_t out, const Link& link, Time now = Time::max()) {
        const uint32_t n = uint32_t(inputs_.size());
        Port& port = ports_[out];
        int best = -1;
        uint8_t best_vnet = 0xFF;
        // Whether input b may go and outranks the best so far; true once nothing can.
        auto consider = [&](uint32_t b) {
            const Input& in = inputs_[b];
            if (in.vnet >= best_vnet || link.credits(in.head_vc) < in.head_cost || in.ready_at > now) return false;
            best = int(b);
            best_vnet = in.vnet;
            return best_vnet == 0;  // nothing outranks the top network
        };
        if (n <= 64) {
            // Only the inputs whose head asks for `out`, in the scan's order: those at or
            // after the grant, then those before. A scan of every input read each one's
            // head (a 3-D router's 7 to 14 of them, several cache lines): on a 2,048-node
            // halo some 250 misses of the host's second-level cache a message (callgrind's
            // model of it; none at 64 nodes, where the routers stay in it).
            const uint64_t after = port.requesters & (~uint64_t{0} << port.next_grant);
            const uint64_t before = port.requesters & ~(~uint64_t{0} << port.next_grant);
            bool done = false;
            for (uint64_t bits : {after, before})
                for (; bits && !done; bits &= bits - 1) done = consider(uint32_t(std::countr_zero(bits)));
        } else {
            uint32_t b = port.next_grant;
            for (uint32_t k = 0; k < n; ++k, b = (b + 1 == n ? 0 : b + 1))
                if (inputs_[b].head_port == out && consider(b)) break;
        }
        if (best >= 0) port.next_grant = uint32_t(best) + 1 == n ? 0 : uint32_t(best) + 1;
        return best;
    }

    // Input buffers whose head packet is routed to output p: a busy output needs a
    // wake-up only while this is non-zero.
    uint32_t requests(uint8_t p) const { return ports_[p].requests; }

    // Wormhole: buffer b's last head has left but its tail is still inside (until
    // ready_input says when it is out); the packet behind cannot start before.
    void hold_input(uint32_t b) { inputs_[b].ready_at = Time::max(); }
    void ready_input(uint32_t b, Time at) { inputs_[b].ready_at = at; }

private:
    struct Port {
        PortInfo info;
        LinkId in_link = UINT32_MAX;
        LinkId out_link = UINT32_MAX;
        uint32_t next_grant = 0;
        uint32_t requests = 0;
        // Bit b: input b's head goes out here (routers of up to 64 inputs; arbitrate).
        uint64_t requesters = 0;
    };
    uint32_t id_;
    uint32_t vcs_;
    CreditUnit unit_;
    bool wormhole_;
    std::vector<Port> ports_;
    static constexpr uint8_t kNoHead = 0xFF;
    struct Input {
        PacketQueue queue;
        uint8_t head_port = kNoHead;  // routing decision of the head packet, cached
        uint8_t head_vc = 0;
        uint8_t vnet = 0;             // of every packet this buffer holds
        uint32_t head_cost = 1;       // credits the head packet needs downstream
        Time ready_at{};              // wormhole: when the previous packet's tail has left
    };
    void set_head(uint32_t b, const PacketSlot& head) {
        Input& in = inputs_[b];
        Port& out = ports_[head.out_port];
        in.head_port = head.out_port;
        in.head_vc = head.out_vc;
        in.head_cost = wormhole_ && out.info.kind == PeerKind::Router ? 1 : unit_.cost(head.header.length);
        ++out.requests;
        out.requesters |= bit(b);
    }
    // Input b's bit in a port's requesters (none past 64 inputs: arbitrate scans them).
    static uint64_t bit(uint32_t b) { return b < 64 ? uint64_t{1} << b : 0; }

    std::vector<Input> inputs_;  // port-major: port × vcs + vc
};

}  // namespace niclab::net
