// The vl transport: occam-style channel input and output on T9000 virtual links.
//
// "vl_seq" is one VL used by one process with blocking communication, as Comms1 runs
// (L624) and as we read the single-VL tests of seed 003 §2.1: an output blocks the
// process until the message's last packet is acknowledged (occam's SEQ out; in). "vl" is
// the same VL with each output running in parallel with the process's next input (an
// occam PAR): a channel output completes only when its last packet is acknowledged,
// which is after the receiver has input, so two processes that each output before they
// input (Comms2's exchange, "blocking and non-blocking communication", L624) deadlock
// on vl_seq. The next output on the VL, prepare_send and wait_sends wait for the
// acknowledgement. An input is posted when the process inputs and blocks it until the
// message is in its buffer.
// "vlK" (K = 2..5, 10) uses K VLs on each of the node's links (t9000.links) at once, as
// Fig. 1 (L77, L83: K VLs on one link), Fig. 3 (L112: one to four links) and Fig. 5
// (L145: "10 virtual links in use per physical link") do with one process per VL. VL i
// is placed on link i mod links (round-robin, Vcp::link), so successive messages, which
// go round the VLs, go round the links too, and the caller stands for the K x links
// processes,
// so an output blocks only when its VL still carries the previous message, and every
// VL whose process is not holding a message has an input posted.
//
// CPU costs, the rest is the VCP's: each in or out instruction costs channel_op, and a
// process restarted by the hardware scheduler costs a partial context switch (seed 003
// L128: a deschedule at a channel input or output is one of its "certain
// instructions"). With one VL that is a process that had to wait (unless HostCpu already
// charged a switch because another process ran meanwhile); with K VLs every call is made
// by that VL's own process, so each is one switch, as in the short-message test where
// "processes are continuously context switching ... every time they send" (L138).
#include <algorithm>
#include <vector>

#include "niclab/msg/payload_pattern.hpp"
#include "niclab/sim/ring_queue.hpp"
#include "niclab/systems/t9000/model.hpp"

namespace niclab::t9000 {

namespace {

class VlTransport final : public msg::Transport {
public:
    VlTransport(Vcp& me, Vcp& peer, host::HostMemory& memory, uint64_t& heap, uint32_t vls, bool blocking, uint64_t seed,
                const VlCosts& costs)
        : me_(me), peer_vcp_(peer), memory_(memory), heap_(heap), seed_(seed), costs_(costs), blocking_(blocking) {
        for (uint32_t i = 0; i < vls; ++i) {
            vls_.push_back(&me.link(peer.params().node, i));
            peer_side_.push_back(&peer.link(node(), i));
        }
        taken_.assign(vls, 0);
    }

    uint32_t node() const override { return me_.params().node; }
    uint32_t peer() const override { return peer_vcp_.params().node; }
    uint64_t received() const override { return received_; }

    void open(host::ProcessContext&, uint64_t max_bytes) override {
        if (max_bytes > kMaxVlMessage) fail("takes at most " + std::to_string(kMaxVlMessage) + " B per message, not " +
                                            std::to_string(max_bytes));
        max_bytes_ = std::max<uint64_t>(max_bytes, 1);
        // A simple bump allocation of this node's memory: one send buffer, one input
        // buffer per VL, after those of the node's transports opened before (a halo
        // exchange has one per neighbour).
        if (heap_ == 0) heap_ = kBufferBase;
        send_buf_ = heap_;
        for (size_t i = 0; i < vls_.size(); ++i) recv_buf_.push_back(heap_ + (i + 1) * round_up(max_bytes_));
        heap_ += (vls_.size() + 1) * round_up(max_bytes_);
        opened_ = true;
    }

    void prepare_send(host::ProcessContext& ctx, uint64_t bytes) override {
        check(bytes);
        wait_sends(ctx);
        send_bytes_ = bytes;
        msg::fill_pattern(memory_, send_buf_, bytes, msg::pattern_key(seed_, node(), bytes));
    }

    void send(host::ProcessContext& ctx, uint64_t tag) override {
        check(send_bytes_);
        VirtualLink& vl = *vls_[next_out_];
        switch_in(ctx, vl.out_cond, [&] { return !vl.out_active; });
        ctx.compute(costs_.channel_op);
        peer_side_[next_out_]->tags.push_back(tag);
        me_.output(vl, send_buf_, send_bytes_);
        next_out_ = (next_out_ + 1) % vls_.size();
        if (blocking_) wait(ctx, vl.out_cond, [&] { return !vl.out_active; });
    }

    msg::Received recv(host::ProcessContext& ctx) override {
        check(0);
        if (ready_.empty()) {
            post_inputs(ctx);
            VirtualLink& vl = *vls_[next_in_];
            const uint64_t want = taken_[next_in_] + 1;
            switch_in(ctx, vl.in_cond, [&] { return vl.inputs_done >= want; });
            take();
        }
        const msg::Received r = ready_.front();
        ready_.pop_front();
        return r;
    }

    void wait_sends(host::ProcessContext& ctx) override {
        for (VirtualLink* vl : vls_) wait(ctx, vl->out_cond, [vl] { return !vl->out_active; });
    }

    void poll(host::ProcessContext& ctx) override {
        check(0);
        post_inputs(ctx);
        while (vls_[next_in_]->inputs_done > taken_[next_in_]) {
            take();
            post_inputs(ctx);
        }
    }

private:
    static constexpr uint64_t kBufferBase = 0x10000;
    static uint64_t round_up(uint64_t n) { return (n + 63) / 64 * 64; }

    [[noreturn]] void fail(const std::string& what) const {
        throw msg::TransportError("node " + std::to_string(node()) + " (vl transport): " + what);
    }
    void check(uint64_t bytes) const {
        if (!opened_) fail("used before open()");
        if (bytes > max_bytes_) fail("message of " + std::to_string(bytes) + " B beyond the " + std::to_string(max_bytes_) +
                                     " B open() prepared for");
    }

    // Blocks until pred() holds; a process that had to wait is rescheduled.
    template <typename Pred>
    void wait(host::ProcessContext& ctx, host::Condition& c, Pred pred) {
        if (pred()) return;
        const Time switched = ctx.process().system_time();
        ctx.wait_for(c, pred);
        if (ctx.process().system_time() == switched) ctx.compute(costs_.reschedule);
    }

    // The process of the VL at hand runs: with several VLs that is a switch to it.
    template <typename Pred>
    void switch_in(host::ProcessContext& ctx, host::Condition& c, Pred pred) {
        if (vls_.size() == 1) return wait(ctx, c, pred);
        ctx.wait_for(c, pred);
        ctx.compute(costs_.reschedule);
    }

    // Every VL whose process is not holding a message inputs on it.
    void post_inputs(host::ProcessContext& ctx) {
        for (size_t i = 0; i < vls_.size(); ++i) {
            VirtualLink& vl = *vls_[i];
            if (vl.in_posted || vl.inputs_done > taken_[i]) continue;
            ctx.compute(costs_.channel_op);
            me_.input(vl, recv_buf_[i], max_bytes_);
        }
    }

    // The message of VL next_in_ is in its buffer: check it and hand it over.
    void take() {
        VirtualLink& vl = *vls_[next_in_];
        const uint64_t bytes = vl.last_input_bytes;
        msg::check_pattern(memory_, recv_buf_[next_in_], bytes, msg::pattern_key(seed_, peer(), bytes), node(), peer(),
                           "message");
        if (vl.tags.empty()) fail("a message on VL " + std::to_string(vl.index) + " without its tag");
        ready_.push_back({bytes, vl.tags.front()});
        vl.tags.pop_front();
        ++taken_[next_in_];
        ++received_;
        next_in_ = (next_in_ + 1) % vls_.size();
    }

    Vcp& me_;
    Vcp& peer_vcp_;
    host::HostMemory& memory_;
    uint64_t& heap_;  // the node's next free buffer address (0: none taken yet)
    uint64_t seed_;
    VlCosts costs_;
    std::vector<VirtualLink*> vls_;        // ours, by index
    std::vector<VirtualLink*> peer_side_;  // the peer's ends (for the tags)
    std::vector<uint64_t> recv_buf_;
    std::vector<uint64_t> taken_;  // messages handed over, per VL
    sim::RingQueue<msg::Received> ready_;
    uint64_t send_buf_ = 0, send_bytes_ = 0, max_bytes_ = 0, received_ = 0;
    size_t next_out_ = 0, next_in_ = 0;
    bool blocking_;
    bool opened_ = false;
};

}  // namespace

std::vector<msg::TransportInfo> transport_infos() {
    std::vector<msg::TransportInfo> t = {
        {"vl", "one virtual link, one process; each output runs in parallel with the next input (occam PAR)", {"send"},
         kMaxVlMessage},
        {"vl_seq", "one virtual link, one process, blocking output then input (occam SEQ; Comms1, seed 003 §2.1)", {"send"},
         kMaxVlMessage}};
    for (uint32_t k : {2u, 3u, 4u, 5u, 10u})
        t.push_back({"vl" + std::to_string(k),
                     std::to_string(k) +
                         " virtual links on each physical link (t9000.links), one process each, messages in turn round the VLs and links (Fig. 1 L77, Fig. 3 L112, Fig. 5 L145)",
                     {"send"},
                     kMaxVlMessage});
    return t;
}

std::unique_ptr<msg::Transport> make_vl_transport(Vcp& me, Vcp& peer, host::HostMemory& memory, uint64_t& heap,
                                                  uint32_t vls_per_link, bool blocking, uint64_t seed, const VlCosts& costs) {
    if (blocking && vls_per_link != 0) throw msg::TransportError("blocking outputs are for one virtual link");
    if (vls_per_link > kMaxVirtualLinks)
        throw msg::TransportError(std::to_string(vls_per_link) + " virtual links per link: at most " +
                                  std::to_string(kMaxVirtualLinks));
    const uint32_t vls = vls_per_link == 0 ? 1 : vls_per_link * me.links();
    return std::make_unique<VlTransport>(me, peer, memory, heap, vls, blocking, seed, costs);
}

}  // namespace niclab::t9000
