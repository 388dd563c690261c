// GRIM's `sockets` transport: the experiments over the sockets emulation (sockets.hpp),
// as §8.3.4's benchmark uses it -- a connection between two hosts, blocks written and
// read back over it. The lower-numbered node of a pair accepts, the other connects
// (without waiting: its first write may follow at once). A node's k-th transport to a
// peer uses port kPortBase + 16 * (client node) + k on the server.
//
// A stream has no message boundaries: the two programs know each block's size
// (§8.3.4's benchmark sends blocks of the size being measured). The size and tag of
// each block go out of band through the TransportDirectory (untimed bookkeeping, as
// the rm transports' tags); the bytes go through the socket, and the receiver reads
// exactly that many with a loop of read() calls. A block of 0 bytes (the stream
// experiment's acknowledgement) is written as 1 byte: a sockets program has to send
// something for its peer to see.
#include <algorithm>

#include "niclab/msg/payload_pattern.hpp"
#include "niclab/sim/ring_queue.hpp"
#include "niclab/systems/grim/sockets.hpp"
#include "niclab/systems/grim/transport.hpp"

namespace niclab::grim {

namespace {

constexpr uint32_t kPortBase = 5000;  // assumption: any free range of ports

class SocketTransport final : public msg::Transport {
public:
    SocketTransport(Sockets& sockets, host::HostMemory& memory, TransportDirectory& directory, uint32_t peer, uint64_t seed)
        : so_(sockets), memory_(memory), directory_(directory), peer_(peer), seed_(seed), slot_(directory.add(sockets.node(), peer)) {
        if (slot_.index >= kMaxTransports)
            fail("GRIM's transports take buffers for " + std::to_string(kMaxTransports) + " transports on one node");
        send_pa_ = kTransportSendBase + slot_.index * kTransportMaxMessage;
        recv_pa_ = kTransportRecvBase + slot_.index * kTransportMaxMessage;
    }
    uint32_t node() const override { return so_.node(); }
    uint32_t peer() const override { return peer_; }
    uint64_t received() const override { return received_; }

    void open(host::ProcessContext& ctx, uint64_t max_bytes) override {
        if (max_bytes > kTransportMaxMessage)
            fail("messages of up to " + std::to_string(kTransportMaxMessage) + " B, not " + std::to_string(max_bytes));
        max_ = max_bytes;
        const bool server = node() < peer_;
        const uint32_t port = kPortBase + 16 * (server ? peer_ : node()) + slot_.pairing;
        // The blocks the peer sends this way are listed here (out of band).
        directory_.publish(node(), peer_, slot_.pairing, 0, 0);
        fd_ = server ? so_.accept(ctx, port) : so_.connect(ctx, peer_, port, false);
    }
    void prepare_send(host::ProcessContext&, uint64_t bytes) override {
        check(bytes);
        bytes_ = bytes;
        msg::fill_pattern(memory_, send_pa_, bytes, msg::pattern_key(seed_, node(), bytes));
    }
    void send(host::ProcessContext& ctx, uint64_t tag) override {
        check(bytes_);
        Landing* to = nullptr;
        ctx.wait_for(directory_.published(), [&] { return (to = directory_.find(peer_, node(), slot_.pairing)) != nullptr; });
        // Listed before the first byte goes: the receiver's poll that sees the bytes sees
        // the size (no wake-up of the peer's program here: it learns of the block from
        // the bytes' arrival, which is no sooner than the kernel's lookahead).
        to->sizes.push_back(bytes_);
        to->tags.push_back(tag);
        so_.write(ctx, fd_, send_pa_, std::max<uint64_t>(bytes_, 1));
    }
    // write() has copied the bytes into the NI (PIO) before it returns.
    void wait_sends(host::ProcessContext&) override {}
    msg::Received recv(host::ProcessContext& ctx) override {
        check(0);
        if (ready_.empty()) {
            // Polling meanwhile, as the library does: other connections' fragments are
            // taken into their sockets, not left to fill the endpoint's queue. The size is
            // listed before the first byte is written, so the poll that sees the bytes
            // (their arrival wakes it) sees the size.
            Landing* mine = directory_.find(node(), peer_, slot_.pairing);
            so_.endpoint().wait(ctx, [&] { return !mine->sizes.empty(); });
            take_one(ctx, *mine);
        }
        const msg::Received r = ready_.front();
        ready_.pop_front();
        return r;
    }
    void poll(host::ProcessContext& ctx) override {
        check(0);
        so_.endpoint().poll(ctx);
        Landing* mine = directory_.find(node(), peer_, slot_.pairing);
        while (!mine->sizes.empty() && so_.available(fd_) >= std::max<uint64_t>(mine->sizes.front(), 1)) take_one(ctx, *mine);
    }

private:
    // Reads the next block whole and checks it byte for byte.
    void take_one(host::ProcessContext& ctx, Landing& mine) {
        const uint64_t bytes = mine.sizes.front(), tag = mine.tags.front();
        mine.sizes.pop_front();
        mine.tags.pop_front();
        so_.read_full(ctx, fd_, recv_pa_, std::max<uint64_t>(bytes, 1));
        if (bytes) msg::check_pattern(memory_, recv_pa_, bytes, msg::pattern_key(seed_, peer_, bytes), node(), peer_, "GRIM socket block");
        ready_.push_back({bytes, tag});
        ++received_;
    }
    void check(uint64_t bytes) const {
        if (fd_ < 0) fail("used before open()");
        if (bytes > max_) fail("a " + std::to_string(bytes) + "-byte message is larger than the " + std::to_string(max_) + " B opened for");
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw msg::TransportError("node " + std::to_string(node()) + " (sockets transport): " + what);
    }

    Sockets& so_;
    host::HostMemory& memory_;
    TransportDirectory& directory_;
    uint32_t peer_;
    uint64_t seed_;
    TransportDirectory::Slot slot_;
    int fd_ = -1;
    uint64_t max_ = 0, bytes_ = 0, received_ = 0;
    uint64_t send_pa_ = 0, recv_pa_ = 0;
    sim::RingQueue<msg::Received> ready_;
};

}  // namespace

std::unique_ptr<msg::Transport> make_socket_transport(Sockets& sockets, host::HostMemory& memory, TransportDirectory& directory,
                                                      uint32_t peer, uint64_t seed) {
    return std::make_unique<SocketTransport>(sockets, memory, directory, peer, seed);
}

}  // namespace niclab::grim
