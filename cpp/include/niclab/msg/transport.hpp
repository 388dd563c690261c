#pragma once
// The one small messaging interface every experiment runs through, on every system
// (DESIGN.md, Systems): two-sided send/receive of n bytes, one-sided get where the
// system has it, and a non-blocking poll. Each system's host library has an adapter
// (SeaStar: Portals put/get; StarT-X: JAM over PIO, VI, RDMA; later CSP channels and
// GRIM endpoints), built by the system's model (system/system_model.hpp).
//
// The payload is real: prepare_send writes a pattern that depends on the seed, the
// sending node and the size (msg/payload_pattern.hpp) into the sender's host memory,
// and every receive is checked byte for byte against the pattern the peer sent; a
// difference is a TransportError naming the node, the size and the offset. Writing
// and checking the pattern cost no simulated time: only the library's own work does.
//
// Every call comes from a host process (its ProcessContext) on the transport's node;
// calls block the way the host library blocks (a process waiting for a message is off
// the CPU or polling, as the library does it).
#include <cstdint>
#include <string>
#include <vector>

#include "niclab/host/process.hpp"
#include "niclab/sim/error.hpp"

namespace niclab::msg {

// A library call failed, data arrived wrong, or the transport cannot do what was asked
// (a size beyond its limits, an operation it does not offer).
class TransportError : public Error {
public:
    using Error::Error;
};

// What a system offers: a transport name and the operations it supports ("put" and
// "get" for Portals; "send" for two-sided libraries). The first op is the default.
struct TransportInfo {
    std::string name;
    std::string summary;
    std::vector<std::string> ops;
    uint64_t max_message = 0;  // largest n one send or get accepts (bytes)
};

struct Received {
    uint64_t bytes = 0;
    uint64_t tag = 0;  // the sender's tag (send's `tag`)
};

class Transport {
public:
    virtual ~Transport() = default;

    virtual uint32_t node() const = 0;
    virtual uint32_t peer() const = 0;

    // Sets up what the library needs for messages of up to `max_bytes` (buffers,
    // queues, windows). Called once, first, from this node's process.
    virtual void open(host::ProcessContext& ctx, uint64_t max_bytes) = 0;

    // Two-sided. prepare_send writes the pattern for `bytes` into the send buffer once
    // the previous sends have left it (not timed by the callers); send sends it to the
    // peer with `tag`; recv blocks until the next message from the peer has arrived
    // whole and is checked; wait_sends returns when every send has left the buffer.
    virtual void prepare_send(host::ProcessContext& ctx, uint64_t bytes) = 0;
    virtual void send(host::ProcessContext& ctx, uint64_t tag = 0) = 0;
    virtual Received recv(host::ProcessContext& ctx) = 0;
    virtual void wait_sends(host::ProcessContext& ctx) = 0;

    // Non-blocking: takes whatever has arrived without waiting (one library poll).
    // Messages taken are counted in received() and handed to later recv() calls.
    virtual void poll(host::ProcessContext& ctx) = 0;
    virtual uint64_t received() const = 0;  // messages from the peer taken so far

    // One-sided get (only where the system has it: supports_get()). get blocks until
    // `bytes` from the peer's buffer have arrived and are checked. prepare_get /
    // start_get / wait_replies are the non-blocking form (LogP signature, PRTT).
    virtual bool supports_get() const { return false; }
    virtual void get(host::ProcessContext& ctx, uint64_t bytes);
    virtual void prepare_get(host::ProcessContext& ctx, uint64_t bytes);
    virtual void start_get(host::ProcessContext& ctx);
    virtual uint64_t replies() const { return 0; }
    virtual void wait_replies(host::ProcessContext& ctx, uint64_t total);
    // The target's program while its peer gets: nothing where the system answers gets
    // on its own (a kernel driver, the NIC). A library that makes progress only when
    // its process enters it (accelerated Portals: the events of the gets the firmware
    // answered must be taken and their pendings released) serves here for ever,
    // blocked while nothing arrives.
    virtual void serve_gets(host::ProcessContext& ctx) { (void)ctx; }

protected:
    [[noreturn]] void no_get() const;
};

}  // namespace niclab::msg
