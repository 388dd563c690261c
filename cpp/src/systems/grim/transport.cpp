// GRIM's msg::Transport adapters:
//   am    active messages (§4.4): each message is one or more AMs of up to the
//         endpoint's fragment size (its firmware's data path, endpoint.hpp) to the peer's bench handler; fragments of a longer message
//         are copied into a reassembly buffer by the handler (§8.2.1), the last one
//         completes it.
//   rm-p  remote memory to a physical address (§4.5.3): the message goes straight
//         into the peer transport's registered buffer in fragments, the last
//         carrying the notification word (§4.5.5) the peer polls -- the thesis's RM
//         benchmark (§5.5.1, L1413).
//   rm-v  the same by virtual address (§4.5.3): the buffers come from
//         grim_malloc_pinned (contiguous, with the NI's static translation entries);
//         the peer's NI translates every block.
// A node may have several open (one per neighbour in a halo exchange). Each takes its
// own buffers by its index among the node's transports (am, rm-p: pinned, contiguous
// host memory at fixed addresses, GRIM's pinned allocator, §4.5.1; the first transport
// of a node takes the addresses every pairwise run has used); rm-v allocates at open().
// A transport pairs with its peer's transport back to it (TransportDirectory): an AM
// pair registers one handler name with the global handler server (§4.4.1), so both
// sides know its id; a remote memory sender writes where the receiving transport
// published its buffer and word, and waits (untimed set-up) until it has. A wrong
// virtual address would be refused by the peer's NI (MemoryError), never written
// elsewhere.
#include "niclab/systems/grim/transport.hpp"

#include <algorithm>

#include "niclab/fw/grim_fw.h"
#include "niclab/msg/payload_pattern.hpp"
#include "niclab/sim/ring_queue.hpp"

namespace niclab::grim {

namespace {

constexpr uint64_t kMaxMessage = kTransportMaxMessage;
constexpr uint64_t kSendBase = kTransportSendBase, kRecvBase = kTransportRecvBase, kReassembly = 0x3000'0000;
constexpr uint64_t kNotify = 0x3FFF'E000;
// The k-th transport of a node has its buffers kMaxMessage * k above the first's and
// its notification word 4 * k above (transport.hpp).

class GrimTransport : public msg::Transport {
public:
    GrimTransport(Endpoint& ep, host::HostMemory& memory, TransportDirectory& directory, uint32_t peer, uint64_t seed, const char* name)
        : ep_(ep), memory_(memory), directory_(directory), peer_(peer), seed_(seed), name_(name), slot_(directory.add(ep.node(), peer)) {
        if (slot_.index >= kMaxTransports)
            fail("GRIM's transports take buffers for " + std::to_string(kMaxTransports) + " transports on one node");
        send_pa_ = own(kSendBase);
    }
    uint32_t node() const override { return ep_.node(); }
    uint32_t peer() const override { return peer_; }
    uint64_t received() const override { return received_; }
    void prepare_send(host::ProcessContext&, uint64_t bytes) override {
        check(bytes);
        bytes_ = bytes;
        msg::fill_pattern(memory_, send_pa_, bytes, msg::pattern_key(seed_, node(), bytes));
    }
    // PIO copies the message into the NI before send() returns: the buffer is free.
    void wait_sends(host::ProcessContext&) override {}
    msg::Received recv(host::ProcessContext& ctx) override {
        check(0);
        ep_.wait(ctx, [&] { return take(ctx); });
        const msg::Received r = ready_.front();
        ready_.pop_front();
        return r;
    }
    void poll(host::ProcessContext& ctx) override {
        check(0);
        ep_.poll(ctx);
        take(ctx);
    }

protected:
    // Moves completed messages to ready_; true if any is there.
    virtual bool take(host::ProcessContext& ctx) = 0;
    void check(uint64_t bytes) const {
        if (!open_) fail("used before open()");
        if (bytes > max_) fail("a " + std::to_string(bytes) + "-byte message is larger than the " + std::to_string(max_) + " B opened for");
    }
    void opened(uint64_t max_bytes) {
        if (max_bytes > kMaxMessage) fail("messages of up to " + std::to_string(kMaxMessage) + " B, not " + std::to_string(max_bytes));
        max_ = max_bytes;
        open_ = true;
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw msg::TransportError("node " + std::to_string(node()) + " (" + name_ + " transport): " + what);
    }

    // This transport's piece of one of the node's fixed regions.
    uint64_t own(uint64_t base) const { return base + slot_.index * kMaxMessage; }

    Endpoint& ep_;
    host::HostMemory& memory_;
    TransportDirectory& directory_;
    uint32_t peer_;
    uint64_t seed_;
    const char* name_;
    TransportDirectory::Slot slot_;
    bool open_ = false;
    uint64_t max_ = 0, bytes_ = 0, received_ = 0;
    uint64_t send_pa_ = kSendBase;  // where the message to send is put in host memory
    sim::RingQueue<msg::Received> ready_;
};

class AmTransport final : public GrimTransport {
public:
    using GrimTransport::GrimTransport;
    void open(host::ProcessContext&, uint64_t max_bytes) override {
        opened(max_bytes);
        // One name for the pair, registered on both nodes: the server gives both the id.
        const uint32_t lo = std::min(node(), peer_), hi = std::max(node(), peer_);
        std::string name = "niclab.bench.";
        name += std::to_string(lo);
        name += '-';
        name += std::to_string(hi);
        if (slot_.pairing) {
            name += '#';
            name += std::to_string(slot_.pairing);
        }
        handler_ = ep_.register_handler(name, [this](host::ProcessContext& ctx, const ActiveMessage& m) { arrive(ctx, m); });
    }
    void send(host::ProcessContext& ctx, uint64_t tag) override {
        check(bytes_);
        uint64_t off = 0;
        do {
            const uint32_t n = uint32_t(std::min<uint64_t>(ep_.fragment_bytes(), bytes_ - off));
            // args: total bytes, tag, offset of this fragment
            ep_.am_send(ctx, peer_, handler_, {uint32_t(bytes_), uint32_t(tag), uint32_t(off), 0}, send_pa_ + off, n);
            off += n;
        } while (off < bytes_);
    }

private:
    void arrive(host::ProcessContext& ctx, const ActiveMessage& m) {
        if (m.src_node != peer_) return;  // another pair's traffic
        const uint64_t total = m.args[0], off = m.args[2];
        if (m.bytes == total) {  // one fragment: checked where it landed
            msg::check_pattern(memory_, m.payload_addr, total, msg::pattern_key(seed_, peer_, total), node(), peer_, "GRIM active message");
            done_.push_back({total, m.args[1]});
            return;
        }
        // §8.2.1: the handler copies each fragment into the reassembly buffer.
        ctx.copy(m.bytes);
        copy_.resize(m.bytes);
        memory_.read(m.payload_addr, copy_);
        memory_.write(own(kReassembly) + off, copy_);
        if (off + m.bytes == total) {
            msg::check_pattern(memory_, own(kReassembly), total, msg::pattern_key(seed_, peer_, total), node(), peer_,
                               "GRIM active message (reassembled)");
            done_.push_back({total, m.args[1]});
        }
    }
    bool take(host::ProcessContext&) override {
        while (!done_.empty()) {
            ready_.push_back(done_.front());
            done_.pop_front();
            ++received_;
        }
        return !ready_.empty();
    }
    uint32_t handler_ = 0;
    sim::RingQueue<msg::Received> done_;
    std::vector<uint8_t> copy_;
};

// rm-p and rm-v: blocks into the peer's buffer, the last with the notification word.
class RmTransport final : public GrimTransport {
public:
    RmTransport(Endpoint& ep, host::HostMemory& memory, TransportDirectory& directory, uint32_t peer, uint64_t seed,
                bool virtual_addresses)
        : GrimTransport(ep, memory, directory, peer, seed, virtual_addresses ? "rm-v" : "rm-p"), virtual_(virtual_addresses) {
        buf_ = phys_ = {own(kSendBase), own(kRecvBase), kNotify + 4 * slot_.index};
        if (!virtual_) directory_.publish(node(), peer_, slot_.pairing, buf_.recv, buf_.notify);
    }
    void open(host::ProcessContext&, uint64_t max_bytes) override {
        opened(max_bytes);
        if (virtual_) {
            const uint32_t n = uint32_t(std::max<uint64_t>(max_bytes, 4));
            buf_ = {ep_.malloc_pinned(n), ep_.malloc_pinned(n), ep_.malloc_pinned(4)};
            const AddressSpace& vm = ep_.memory();
            phys_ = {vm.pa(uint32_t(buf_.send)), vm.pa(uint32_t(buf_.recv)), vm.pa(uint32_t(buf_.notify))};
            send_pa_ = phys_.send;
        }
        const uint32_t zero = 0;
        memory_.write(phys_.notify, std::span(reinterpret_cast<const uint8_t*>(&zero), 4));
        if (virtual_) directory_.publish(node(), peer_, slot_.pairing, buf_.recv, buf_.notify);
    }
    void send(host::ProcessContext& ctx, uint64_t tag) override {
        check(bytes_);
        // Where the peer's transport takes the blocks; until it has said, its program
        // is still setting up (the exchange of addresses is set-up, untimed).
        Landing* to = nullptr;
        ctx.wait_for(directory_.published(), [&] { return (to = directory_.find(peer_, node(), slot_.pairing)) != nullptr; });
        to->tags.push_back(tag);
        // The notification value: a message count (low byte) and the size, so the
        // receiver knows both from the one word (sizes below 16 MB).
        ++sent_;
        const uint32_t value = (uint32_t(sent_ & 0xFF) << 24) | uint32_t(bytes_);
        uint64_t off = 0;
        do {
            const uint32_t n = uint32_t(std::min<uint64_t>(ep_.fragment_bytes(), bytes_ - off));
            const bool last = off + n == bytes_;
            if (virtual_)
                ep_.rm_write_v(ctx, peer_, uint32_t(to->recv + off), uint32_t(buf_.send + off), n, last ? uint32_t(to->notify) : 0,
                               last ? value : 0);
            else
                ep_.rm_write_p(ctx, peer_, to->recv + off, buf_.send + off, n, last ? to->notify : 0, last ? value : 0);
            off += n;
        } while (off < bytes_);
    }

private:
    bool take(host::ProcessContext&) override {
        if (!ready_.empty()) return true;
        uint32_t v = 0;
        memory_.read(phys_.notify, std::span(reinterpret_cast<uint8_t*>(&v), 4));
        // Messages that came since the last look (a stream overwrites the word; every
        // message of one run has the size the word names, and the same pattern).
        const uint32_t fresh = ((v >> 24) - uint32_t(received_)) & 0xFF;
        if (!fresh) return false;
        const uint64_t bytes = v & 0xFF'FFFF;
        msg::check_pattern(memory_, phys_.recv, bytes, msg::pattern_key(seed_, peer_, bytes), node(), peer_,
                           virtual_ ? "GRIM RM-V block" : "GRIM RM-P block");
        Landing* mine = directory_.find(node(), peer_, slot_.pairing);
        for (uint32_t i = 0; i < fresh; ++i) {
            const uint64_t tag = mine->tags.empty() ? 0 : mine->tags.front();
            if (!mine->tags.empty()) mine->tags.pop_front();
            ready_.push_back({bytes, tag});
        }
        received_ += fresh;
        return true;
    }
    struct Buffers {
        uint64_t send, recv, notify;
    };
    bool virtual_;
    Buffers buf_{};   // what the calls name (rm-v: virtual)
    Buffers phys_{};  // where the bytes are in host memory
    uint64_t sent_ = 0;
};

}  // namespace

std::vector<msg::TransportInfo> transport_infos() {
    return {
        {"am", "GRIM active messages (seed 004 §4.4): PIO injection, NI-to-NI go-back-N, delivery into the endpoint's queue, polling",
         {"send"}, kMaxMessage},
        {"rm-p", "GRIM remote memory to a physical address (seed 004 §4.5.3) with a notification word, polled (the §5.5.1 benchmark)",
         {"send"}, (1ull << 24) - 1},
        {"rm-v", "GRIM remote memory to a virtual address (seed 004 §4.5.3): registered (grim_malloc_pinned) buffers, translated by "
                 "the receiving NI, a notification word polled",
         {"send"}, (1ull << 24) - 1},
        {"sockets", "GRIM's sockets emulation (seed 004 §8.3): a stream connection per pair, writes as active messages, the handler "
                    "copies each fragment into a newly allocated block, reads copy out of them",
         {"send"}, kMaxMessage},
    };
}

std::unique_ptr<msg::Transport> make_transport(const std::string& name, Endpoint& ep, host::HostMemory& memory,
                                               TransportDirectory& directory, uint32_t peer, uint64_t seed) {
    if (name == "am") return std::make_unique<AmTransport>(ep, memory, directory, peer, seed, "am");
    if (name == "rm-p") return std::make_unique<RmTransport>(ep, memory, directory, peer, seed, false);
    if (name == "rm-v") return std::make_unique<RmTransport>(ep, memory, directory, peer, seed, true);
    throw msg::TransportError("GRIM has no transport '" + name + "' (am, rm-p, rm-v, sockets)");
}

}  // namespace niclab::grim
