#pragma once
// One side of a Portals benchmark, as NetPIPE's Portals module sets it up (seed 001
// §5.2): one match entry on portal 0 accepting the peer, a receive MD over the receive
// buffer (remotely managed, so every put lands at offset 0), an MD over the send
// buffer bound for each message size, and one event queue for everything.
//
// The payload is real: the send buffer holds a pattern that depends on the seed, the
// sending node and the size; every receive is checked byte for byte against the
// pattern the peer sent (ExperimentError naming the node, size and offset on the first
// difference). Checking costs no simulated time.
#include <cstdint>

#include "niclab/host/host_memory.hpp"
#include "niclab/host/process.hpp"
#include "niclab/msg/portals/ni.hpp"

namespace niclab::exp {

class Endpoint {
public:
    // User buffers, below the driver's kernel region (portals::kKernelRegionBase).
    static constexpr uint64_t kSendBuffer = 0x10000000;
    static constexpr uint64_t kRecvBuffer = 0x40000000;
    static constexpr uint64_t kMaxMessage = 0x20000000;  // 512 MiB

    Endpoint(portals::Ni& ni, host::HostMemory& memory, uint32_t peer, uint64_t seed);

    // Creates the EQ, the match entry and the receive MD (for puts from the peer),
    // plus an MD that serves gets from the peer out of the send buffer (`max_bytes`).
    void open(host::ProcessContext& ctx, uint64_t max_bytes);

    // Writes the pattern for `bytes` into the send buffer and binds the send MD (once
    // the previous sends have left the buffer). Not timed by the callers.
    void prepare_send(host::ProcessContext& ctx, uint64_t bytes);
    // Put the prepared message to the peer; `hdr_data` travels in the header.
    void put(host::ProcessContext& ctx, uint64_t hdr_data = 0);
    // Get `bytes` from the peer's send buffer into the receive buffer and wait for the
    // reply; checks the data.
    void get(host::ProcessContext& ctx, uint64_t bytes);
    // Wait for the next put from the peer; checks the data. Returns its event.
    portals::ptl_event_t wait_put(host::ProcessContext& ctx);
    // Every put sent so far has left the send buffer.
    void wait_sends(host::ProcessContext& ctx);

    // Non-blocking use (the LogP signature, parametrized round trips):
    // Handles every event already in the queue (one PtlEQGet each, plus one that finds
    // the queue empty) without waiting. Puts received are counted as wait_put would and
    // are taken by later wait_put calls.
    void poll(host::ProcessContext& ctx);
    // Binds the MD that start_get's replies land in: `bytes` over the receive buffer,
    // once the previous gets have been answered. Not timed by the callers.
    void prepare_get(host::ProcessContext& ctx, uint64_t bytes);
    // Get the prepared size from the peer without waiting; the reply is checked when
    // its event is handled (poll, wait_replies, or any wait).
    void start_get(host::ProcessContext& ctx);
    // Replies to gets received so far (blocking and non-blocking).
    uint64_t replies() const { return replies_; }
    // Until `total` replies have been received in all.
    void wait_replies(host::ProcessContext& ctx, uint64_t total);

    uint32_t node() const { return node_; }
    uint32_t peer() const { return peer_; }
    portals::Ni& ni() { return ni_; }
    uint64_t puts_received() const { return puts_received_; }

private:
    portals::ptl_event_t next_event(host::ProcessContext& ctx);
    void handle(const portals::ptl_event_t& ev);
    void check(uint64_t key, uint64_t bytes, const char* what) const;  // the receive buffer holds pattern `key`

    portals::Ni& ni_;
    host::HostMemory& memory_;
    uint32_t node_, peer_;
    uint64_t seed_;
    portals::ptl_handle_eq_t eq_ = portals::PTL_EQ_NONE;
    portals::ptl_handle_md_t send_md_ = portals::PTL_INVALID_HANDLE;
    uint64_t send_bytes_ = 0;
    uint64_t sends_started_ = 0, sends_done_ = 0;
    uint64_t puts_received_ = 0, replies_ = 0;
    uint64_t pending_puts_ = 0;  // put ends seen while waiting for something else
    portals::ptl_event_t pending_put_{};
    portals::ptl_handle_md_t get_md_ = portals::PTL_INVALID_HANDLE;  // start_get's
    uint64_t get_bytes_ = 0;
    uint64_t gets_started_ = 0, gets_answered_ = 0;  // start_get's
};

}  // namespace niclab::exp
