// GRIM's sockets emulation (seed 004 §8.3): connection set-up, writes as active
// messages, the handlers' per-fragment blocks, reads out of them (sockets.hpp).
#include "niclab/systems/grim/sockets.hpp"

#include <algorithm>
#include <span>

namespace niclab::grim {

Sockets::Sockets(Endpoint& ep, host::HostMemory& memory, const SocketParams& params, uint32_t nodes)
    : ep_(ep), memory_(memory), params_(params), nodes_(nodes) {
    // §8.3.3: "a small number of active message handlers for managing sockets".
    h_connect_ = ep_.register_handler("niclab.sock.connect", [this](host::ProcessContext& c, const ActiveMessage& m) { on_connect(c, m); });
    h_accepted_ = ep_.register_handler("niclab.sock.accepted", [this](host::ProcessContext& c, const ActiveMessage& m) { on_accepted(c, m); });
    h_data_ = ep_.register_handler("niclab.sock.data", [this](host::ProcessContext& c, const ActiveMessage& m) { on_data(c, m); });
    h_close_ = ep_.register_handler("niclab.sock.close", [this](host::ProcessContext& c, const ActiveMessage& m) { on_close(c, m); });
}

void Sockets::fail(const std::string& what, int fd) const { throw SocketError("node " + std::to_string(node()) + " (GRIM sockets): " + what, node(), fd); }

const Sockets::Socket& Sockets::lookup(const char* call, int fd) const {
    if (fd < kFdBase || uint64_t(fd - kFdBase) >= sockets_.size())
        fail(std::string(call) + ": there is no socket fd " + std::to_string(fd) + " (the emulation's sockets are fds " + std::to_string(kFdBase) +
                 " up, " + std::to_string(sockets_.size()) + " opened here)",
             fd);
    const Socket& s = sockets_[size_t(fd - kFdBase)];
    if (s.closed) fail(std::string(call) + ": socket fd " + std::to_string(fd) + " is closed", fd);
    return s;
}

Sockets::Socket& Sockets::lookup(const char* call, int fd) { return const_cast<Socket&>(std::as_const(*this).lookup(call, fd)); }

Sockets::Socket* Sockets::by_peer(uint32_t node, uint32_t sock) {
    const auto it = by_peer_.find({node, sock});
    return it == by_peer_.end() ? nullptr : &sockets_[it->second];
}

int Sockets::connect(host::ProcessContext& ctx, uint32_t node, uint32_t port, bool wait) {
    if (node >= nodes_) fail("connect: no node " + std::to_string(node) + " (the system has " + std::to_string(nodes_) + ")");
    if (node == this->node()) fail("connect: node " + std::to_string(node) + " is this node (GRIM sends to other nodes' NIs)");
    if (port == 0 || port > kMaxPort) fail("connect: port " + std::to_string(port) + " is not 1.." + std::to_string(kMaxPort));
    ctx.compute(params_.call);
    const uint32_t index = uint32_t(sockets_.size());
    Socket& s = sockets_.emplace_back();
    s.peer_node = node;
    s.port = port;
    ep_.am_send(ctx, node, h_connect_, {port, index, 0, 0}, 0, 0);
    if (wait) ep_.wait(ctx, [&] { return s.established; });
    return fd_of(index);
}

int Sockets::accept(host::ProcessContext& ctx, uint32_t port) {
    if (port == 0 || port > kMaxPort) fail("accept: port " + std::to_string(port) + " is not 1.." + std::to_string(kMaxPort));
    ctx.compute(params_.call);
    std::deque<uint32_t>& waiting = backlog_[port];
    ep_.wait(ctx, [&] { return !waiting.empty(); });
    const uint32_t index = waiting.front();
    waiting.pop_front();
    Socket& s = sockets_[index];
    s.accepted = s.established = true;
    ep_.am_send(ctx, s.peer_node, h_accepted_, {s.peer_sock, index, 0, 0}, 0, 0);
    return fd_of(index);
}

bool Sockets::established(int fd) const { return lookup("established", fd).established; }

uint64_t Sockets::available(int fd) const { return lookup("available", fd).buffered; }

void Sockets::write(host::ProcessContext& ctx, int fd, uint64_t src, uint64_t bytes) {
    Socket& s = lookup("write", fd);
    if (bytes > kMaxCall)
        fail("write: " + std::to_string(bytes) + " B on socket fd " + std::to_string(fd) + " is more than one call moves (" + std::to_string(kMaxCall) + " B)", fd);
    if (s.peer_closed) fail("write: socket fd " + std::to_string(fd) + ": the peer (node " + std::to_string(s.peer_node) + ") has closed it", fd);
    ctx.compute(params_.call);
    const uint32_t index = uint32_t(fd - kFdBase);
    const uint32_t fragment = ep_.fragment_bytes();
    for (uint64_t off = 0; off < bytes;) {
        const uint32_t n = uint32_t(std::min<uint64_t>(fragment, bytes - off));
        ep_.am_send(ctx, s.peer_node, h_data_, {index, 0, 0, 0}, src + off, n);
        ++stats_.fragments_out;
        off += n;
    }
}

uint64_t Sockets::read(host::ProcessContext& ctx, int fd, uint64_t dst, uint64_t max) {
    Socket& s = lookup("read", fd);
    if (max > kMaxCall)
        fail("read: " + std::to_string(max) + " B on socket fd " + std::to_string(fd) + " is more than one call moves (" + std::to_string(kMaxCall) + " B)", fd);
    ctx.compute(params_.call);
    if (max == 0) return 0;
    ep_.wait(ctx, [&] { return s.buffered > 0 || s.peer_closed; });
    const uint64_t n = std::min(max, s.buffered);
    for (uint64_t done = 0; done < n;) {
        std::vector<uint8_t>& b = s.blocks.front();
        const uint64_t take = std::min<uint64_t>(b.size() - s.head, n - done);
        memory_.write(dst + done, std::span<const uint8_t>(b.data() + s.head, take));
        done += take;
        s.head += take;
        if (s.head == b.size()) {  // the block is used up: its free is part of `block`
            s.blocks.pop_front();
            s.head = 0;
        }
    }
    s.buffered -= n;
    ctx.copy(n);
    return n;
}

void Sockets::read_full(host::ProcessContext& ctx, int fd, uint64_t dst, uint64_t bytes) {
    for (uint64_t got = 0; got < bytes;) {
        const uint64_t n = read(ctx, fd, dst + got, bytes - got);
        if (n == 0)
            fail("read: socket fd " + std::to_string(fd) + ": the peer (node " + std::to_string(sockets_[size_t(fd - kFdBase)].peer_node) +
                     ") closed it after " + std::to_string(got) + " of the " + std::to_string(bytes) + " B asked for",
                 fd);
        got += n;
    }
}

void Sockets::close(host::ProcessContext& ctx, int fd) {
    Socket& s = lookup("close", fd);
    ctx.compute(params_.call);
    // A client closing before the server accepted still tells it (the server finds the
    // connection by this socket's index).
    if (!s.peer_closed) ep_.am_send(ctx, s.peer_node, h_close_, {uint32_t(fd - kFdBase), 0, 0, 0}, 0, 0);
    s.closed = true;
    s.blocks.clear();
    s.head = s.buffered = 0;
}

// --- handlers (run inside the endpoint's poll) ---

void Sockets::on_connect(host::ProcessContext&, const ActiveMessage& m) {
    const uint32_t port = m.args[0], client = m.args[1];
    const uint32_t index = uint32_t(sockets_.size());
    Socket& s = sockets_.emplace_back();
    s.peer_node = m.src_node;
    s.peer_sock = client;
    s.port = port;
    s.server = true;
    by_peer_[{m.src_node, client}] = index;
    backlog_[port].push_back(index);
}

void Sockets::on_accepted(host::ProcessContext&, const ActiveMessage& m) {
    const uint32_t client = m.args[0], server = m.args[1];
    if (client >= sockets_.size() || sockets_[client].peer_node != m.src_node || sockets_[client].server)
        fail("node " + std::to_string(m.src_node) + " accepted a connection from socket " + std::to_string(client) + ", which did not ask it");
    Socket& s = sockets_[client];
    s.peer_sock = server;
    s.established = true;
    by_peer_[{m.src_node, server}] = client;
}

void Sockets::on_data(host::ProcessContext& ctx, const ActiveMessage& m) {
    Socket* s = by_peer(m.src_node, m.args[0]);
    if (!s) fail("socket data from node " + std::to_string(m.src_node) + " socket " + std::to_string(m.args[0]) + ", which has no connection here");
    if (s->closed) return;  // closed here: what the peer still sends is dropped
    // L2182: a new block for every incoming fragment, linked at the tail, and the
    // fragment copied into it out of the endpoint's queue slot.
    ctx.compute(params_.block);
    ctx.copy(m.bytes);
    std::vector<uint8_t>& b = s->blocks.emplace_back(m.bytes);
    memory_.read(m.payload_addr, b);
    s->buffered += m.bytes;
    ++stats_.blocks;
    stats_.bytes_in += m.bytes;
}

void Sockets::on_close(host::ProcessContext&, const ActiveMessage& m) {
    if (Socket* s = by_peer(m.src_node, m.args[0])) s->peer_closed = true;
}

}  // namespace niclab::grim
