#pragma once
// The SeaStar's transport: one side of a Portals benchmark, as NetPIPE's Portals module
// sets it up (seed 001 §5.2): a Portals interface (pid 0), one match entry on portal 0
// accepting the peer, a receive MD over the receive buffer (remotely managed, so every
// put lands at offset 0), an MD over the send buffer bound for each message size, an MD
// that serves the peer's gets, and one event queue for everything. send is a PtlPut
// (the tag travels as hdr_data), recv waits for a PUT_END event, get is a PtlGet.
#include <cstdint>
#include <memory>

#include "niclab/host/host_memory.hpp"
#include "niclab/msg/portals/ni.hpp"
#include "niclab/msg/transport.hpp"
#include "niclab/systems/seastar/ss_nal.hpp"

namespace niclab::seastar {

class PortalsTransport final : public msg::Transport {
public:
    // User buffers, below the driver's kernel region (kKernelRegionBase).
    static constexpr uint64_t kSendBuffer = 0x10000000;
    static constexpr uint64_t kRecvBuffer = 0x40000000;
    static constexpr uint64_t kMaxMessage = 0x20000000;  // 512 MiB

    // Over the generic-mode kernel NAL or an accelerated process's own (AccelNal, with
    // its limits); the benchmark's process is pid 0 either way.
    // `polled`: the library progresses only when entered (accelerated mode): serve_gets
    // keeps entering it.
    PortalsTransport(portals::Nal& nal, host::HostMemory& memory, uint32_t peer, uint64_t seed,
                     portals::Limits limits = {}, bool polled = false);
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

    portals::Ni& ni() { return *ni_; }

private:
    portals::ptl_event_t next_event(host::ProcessContext& ctx);
    void handle(const portals::ptl_event_t& ev);
    void check(uint64_t key, uint64_t bytes, const char* what) const;  // the receive buffer holds pattern `key`

    std::unique_ptr<portals::Ni> ni_;
    host::HostMemory& memory_;
    uint32_t node_, peer_;
    uint64_t seed_;
    portals::ptl_handle_eq_t eq_ = portals::PTL_EQ_NONE;
    portals::ptl_handle_md_t send_md_ = portals::PTL_INVALID_HANDLE;
    uint64_t sends_started_ = 0, sends_done_ = 0;
    uint64_t puts_received_ = 0, replies_ = 0;
    uint64_t pending_puts_ = 0;  // put ends seen while waiting for something else
    portals::ptl_event_t pending_put_{};
    portals::ptl_handle_md_t get_md_ = portals::PTL_INVALID_HANDLE;  // start_get's
    uint64_t get_bytes_ = 0;
    uint64_t gets_started_ = 0, gets_answered_ = 0;  // start_get's
    bool polled_ = false;
};

}  // namespace niclab::seastar
