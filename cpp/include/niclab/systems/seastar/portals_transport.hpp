#pragma once
// The SeaStar's transport: one side of a Portals benchmark, as NetPIPE's Portals module
// sets it up (seed 001 §5.2): a Portals interface (pid 0), one match entry on portal 0
// accepting the peer, a receive MD over the receive buffer (remotely managed, so every
// put lands at offset 0), an MD over the send buffer bound for each message size, an MD
// that serves the peer's gets, and one event queue for everything. send is a PtlPut
// (the tag travels as hdr_data), recv waits for a PUT_END event, get is a PtlGet.
//
// A node's transports share one process (PortalsProcess): its interface and its event
// queue. A halo exchange opens one transport per neighbour; each has its own match
// entries (they accept only its peer) and its own buffers, and every event goes to the
// transport whose MD it names.
#include <cstdint>
#include <memory>
#include <vector>

#include "niclab/host/host_memory.hpp"
#include "niclab/msg/portals/ni.hpp"
#include "niclab/msg/transport.hpp"
#include "niclab/systems/seastar/ss_nal.hpp"

namespace niclab::seastar {

class PortalsTransport;

// The benchmark's process on one node: a Portals interface (pid 0) over the generic-mode
// kernel NAL or an accelerated process's own (AccelNal, with its limits), one event
// queue, and the transports (one per peer) it serves.
class PortalsProcess {
public:
    // `polled`: the library progresses only when entered (accelerated mode): serve_gets
    // keeps entering it.
    PortalsProcess(portals::Nal& nal, portals::Limits limits, bool polled);
    portals::Nal& nal() const { return nal_; }
    portals::Ni& ni() { return *ni_; }
    bool polled() const { return polled_; }
    // The event queue, allocated by the first transport to open.
    portals::ptl_handle_eq_t eq(host::ProcessContext& ctx);
    // Where a transport that takes messages of up to `max_bytes` puts its buffers: 0 for
    // the first (the classic layout), then past the buffers of those before it.
    uint64_t place(uint64_t max_bytes, uint32_t node);
    void add(PortalsTransport* t) { transports_.push_back(t); }
    void remove(PortalsTransport* t);
    // Waits for one event and hands it to the transport whose MD it names.
    void next_event(host::ProcessContext& ctx);
    // Hands every event already queued to its transport without waiting.
    void poll(host::ProcessContext& ctx);

private:
    void route(const portals::ptl_event_t& ev);
    portals::Nal& nal_;
    std::unique_ptr<portals::Ni> ni_;
    bool polled_;
    portals::ptl_handle_eq_t eq_ = portals::PTL_EQ_NONE;
    uint64_t placed_ = 0;  // buffer bytes of each kind given out
    std::vector<PortalsTransport*> transports_;
};

class PortalsTransport final : public msg::Transport {
public:
    // User buffers, below the driver's kernel region (kKernelRegionBase). The first
    // transport of a process has them at these addresses; later ones past it
    // (PortalsProcess::place), and all of a process's transports together may take up
    // to kSlotBytes of each kind.
    static constexpr uint64_t kSendBuffer = 0x10000000;
    static constexpr uint64_t kRecvBuffer = 0x40000000;
    static constexpr uint64_t kGetBuffer = 0x30000000;  // gets are served from it, filled once
    static constexpr uint64_t kMaxMessage = 0x20000000;  // 512 MiB
    static constexpr uint64_t kSlotBytes = 0x10000000;   // get buffers end where receive buffers begin

    PortalsTransport(std::shared_ptr<PortalsProcess> process, host::HostMemory& memory, uint32_t peer, uint64_t seed);
    ~PortalsTransport() override;

    uint32_t node() const override { return node_; }
    uint32_t peer() const override { return peer_; }
    void open(host::ProcessContext& ctx, uint64_t max_bytes) override;
    void prepare_send(host::ProcessContext& ctx, uint64_t bytes) override;
    void send(host::ProcessContext& ctx, uint64_t tag = 0) override;
    msg::Received recv(host::ProcessContext& ctx) override;
    void wait_sends(host::ProcessContext& ctx) override;
    // Handles every event already in the queue (one PtlEQGet each, plus one that finds
    // the queue empty) without waiting.
    void poll(host::ProcessContext& ctx) override;
    uint64_t received() const override { return puts_received_; }

    bool supports_get() const override { return true; }
    void get(host::ProcessContext& ctx, uint64_t bytes) override;
    void prepare_get(host::ProcessContext& ctx, uint64_t bytes) override;
    void start_get(host::ProcessContext& ctx) override;
    uint64_t replies() const override { return replies_; }
    void wait_replies(host::ProcessContext& ctx, uint64_t total) override;
    void serve_gets(host::ProcessContext& ctx) override;

    portals::Ni& ni() { return process_->ni(); }

private:
    friend class PortalsProcess;
    bool owns(portals::ptl_handle_md_t md) const {
        return md == recv_md_ || md == send_md_ || md == get_md_ || md == blocking_get_md_;
    }
    void handle(const portals::ptl_event_t& ev);
    void check(uint64_t key, uint64_t bytes, const char* what) const;  // the receive buffer holds pattern `key`

    std::shared_ptr<PortalsProcess> process_;
    portals::Ni& ni_;
    host::HostMemory& memory_;
    uint32_t node_, peer_;
    uint64_t seed_;
    uint64_t offset_ = 0;  // its buffers' place past the classic layout
    portals::ptl_handle_eq_t eq_ = portals::PTL_EQ_NONE;
    portals::ptl_handle_md_t recv_md_ = portals::PTL_INVALID_HANDLE;
    portals::ptl_handle_md_t blocking_get_md_ = portals::PTL_INVALID_HANDLE;  // get's
    portals::ptl_handle_md_t send_md_ = portals::PTL_INVALID_HANDLE;
    uint64_t sends_started_ = 0, sends_done_ = 0;
    uint64_t puts_received_ = 0, replies_ = 0;
    uint64_t pending_puts_ = 0;  // put ends seen while waiting for something else
    portals::ptl_event_t pending_put_{};
    portals::ptl_handle_md_t get_md_ = portals::PTL_INVALID_HANDLE;  // start_get's
    uint64_t get_bytes_ = 0;
    uint64_t gets_started_ = 0, gets_answered_ = 0;  // start_get's
};

}  // namespace niclab::seastar
