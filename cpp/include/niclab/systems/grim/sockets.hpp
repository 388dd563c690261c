#pragma once
// GRIM's emulation of reliable (stream) sockets over active messages (seed 004 §8.3,
// L2133-2182). Socket state lives in user space, in this object, one per endpoint:
// "each endpoint in the emulation maintains a list of open socket connections"
// (§8.3.3). accept() marks a port available and a connect() to it establishes the
// connection; write() sends the bytes as active messages of at most the endpoint's
// fragment size, whose handler "allocate[s] a new block of memory for every incoming
// socket fragment and add[s] the block to a linked list" (L2182); read() extracts
// data from that local buffer (receiver-side buffering, chosen "for latency reasons",
// §8.3.3). Handlers run when the endpoint polls, i.e. inside this library's blocking
// calls (and any other poll of the endpoint).
//
// Wire: four handlers registered with the global handler server (§4.4.1), the same ids
// on every node: CONNECT {port, client socket}, ACCEPTED {client socket, server
// socket}, DATA {sender's socket} + payload, CLOSE {sender's socket}. A receiver finds
// the socket by (source node, sender's socket): the client can write as soon as its
// CONNECT is sent, because GRIM delivers one pair's AMs in order (§4.3.2) and the
// server keeps data for a connection it has not accepted yet.
//
// Costs on the host (besides the AM library's own: send call, PIO, poll, dispatch):
// each socket call `SocketParams::call`; each arriving fragment `block` (malloc of the
// block, linking it, its free once read) plus a copy of its bytes at the host copy
// bandwidth; each read a copy of what it takes. assumption: the blocks are the
// process's heap, held as C++ buffers (their bytes are real; their host addresses are
// not modelled, nor is any cache effect of host memory, as elsewhere in niclab).
//
// Flow control: the thesis describes none for the sockets (§8.3.3 says only that data
// is buffered at the receiver). assumption: none at the socket level -- the receive
// buffer grows by a block per fragment while the reader is behind; a receiver that does
// not poll leaves the fragments in its endpoint's AM queue, whose slots the NI
// refuses when full (NACK, go-back-N resend, §4.3.3), which throttles the writer.
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "niclab/host/host_memory.hpp"
#include "niclab/host/process.hpp"
#include "niclab/sim/error.hpp"
#include "niclab/systems/grim/endpoint.hpp"

namespace niclab::grim {

// A socket call on a socket that is unknown or closed, with bad arguments, or that
// cannot complete (the peer closed before enough data came). Names node and socket.
class SocketError : public Error {
public:
    SocketError(const std::string& what, uint32_t node, int fd) : Error(what), node_(node), fd_(fd) {}
    uint32_t node() const { return node_; }
    int fd() const { return fd_; }  // -1: the error is about no one socket (a port, a node)

private:
    uint32_t node_;
    int fd_;
};

struct SocketParams {
    Time call;   // grim.sock_call_ns: one socket call's own work (handle check, state)
    Time block;  // grim.sock_block_ns: allocate and link a fragment's block, free it later
};

class Sockets {
public:
    // assumption: the emulation's "specially marked file handles" (§8.3.3) are numbers
    // from kFdBase up, one per socket, never reused; other numbers are not sockets.
    static constexpr int kFdBase = 0x4000;
    static constexpr uint32_t kMaxPort = 65535;
    // One call moves at most this many bytes (ssize_t on a 32-bit host).
    static constexpr uint64_t kMaxCall = 0x7FFF'FFFF;

    struct Stats {
        uint64_t blocks = 0;         // fragment blocks allocated by the DATA handler
        uint64_t bytes_in = 0;       // bytes appended to receive buffers
        uint64_t fragments_out = 0;  // DATA active messages sent
    };

    // Registers the emulation's handlers with `ep` (untimed set-up); `nodes`: the
    // system's node count (connect checks its node against it).
    Sockets(Endpoint& ep, host::HostMemory& memory, const SocketParams& params, uint32_t nodes);

    // Sends a connection request to `port` on `node`; returns the new socket. With
    // `wait`, blocks (polling) until the server has accepted it, as connect(2) does;
    // without, returns at once (writes may follow: the server keeps their data).
    int connect(host::ProcessContext& ctx, uint32_t node, uint32_t port, bool wait = true);
    // Marks `port` available and blocks (polling) until a connection request for it
    // has come; answers it and returns the server's socket for it. Requests that came
    // before the port was available wait for the next accept (assumption: the thesis
    // does not say what a connect to a port nobody accepts on does).
    int accept(host::ProcessContext& ctx, uint32_t port);
    bool established(int fd) const;

    // Sends `bytes` from host physical `src` to the peer (fragments of at most the
    // endpoint's fragment size). The bytes are in the NI when it returns (PIO).
    void write(host::ProcessContext& ctx, int fd, uint64_t src, uint64_t bytes);
    // Blocks (polling) until the socket holds data or its peer has closed; copies up to
    // `max` bytes to host physical `dst`. Returns how many; 0 means the peer closed and
    // everything it sent has been read.
    uint64_t read(host::ProcessContext& ctx, int fd, uint64_t dst, uint64_t max);
    // Reads until `bytes` have been copied to `dst` (a loop of read(), as a sockets
    // program does: each read takes what has arrived). SocketError if the peer closes
    // first.
    void read_full(host::ProcessContext& ctx, int fd, uint64_t dst, uint64_t bytes);
    // Bytes buffered for the socket now (no poll: what the handlers have appended).
    uint64_t available(int fd) const;
    // Tells the peer (its reads return 0 once its buffer is drained) and forgets the
    // socket here: any later call on `fd` is a SocketError.
    void close(host::ProcessContext& ctx, int fd);

    uint32_t node() const { return ep_.node(); }
    const Stats& stats() const { return stats_; }
    Endpoint& endpoint() { return ep_; }

private:
    struct Socket {
        uint32_t peer_node = 0;
        uint32_t peer_sock = 0;  // the peer's socket index (known to a client once accepted)
        uint32_t port = 0;
        bool server = false;
        bool established = false;
        bool accepted = false;     // server side: handed out by accept()
        bool closed = false;       // closed here
        bool peer_closed = false;  // the peer's CLOSE has come
        // The receive buffer: one block per arrived fragment, oldest first; `head` bytes
        // of the front block are already read.
        std::deque<std::vector<uint8_t>> blocks;
        uint64_t head = 0, buffered = 0;
    };
    Socket& lookup(const char* call, int fd);
    const Socket& lookup(const char* call, int fd) const;
    [[noreturn]] void fail(const std::string& what, int fd = -1) const;
    static int fd_of(uint32_t index) { return kFdBase + int(index); }
    Socket* by_peer(uint32_t node, uint32_t sock);  // the local socket of (peer node, peer socket)

    void on_connect(host::ProcessContext& ctx, const ActiveMessage& m);
    void on_accepted(host::ProcessContext& ctx, const ActiveMessage& m);
    void on_data(host::ProcessContext& ctx, const ActiveMessage& m);
    void on_close(host::ProcessContext& ctx, const ActiveMessage& m);

    Endpoint& ep_;
    host::HostMemory& memory_;
    SocketParams params_;
    uint32_t h_connect_ = 0, h_accepted_ = 0, h_data_ = 0, h_close_ = 0;
    uint32_t nodes_;
    std::deque<Socket> sockets_;  // by index; fd = kFdBase + index (a deque: handlers add while calls hold one)
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> by_peer_;
    std::map<uint32_t, std::deque<uint32_t>> backlog_;  // port -> server sockets not yet accepted
    Stats stats_;
};

}  // namespace niclab::grim
