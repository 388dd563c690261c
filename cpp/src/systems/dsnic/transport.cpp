// The DSNIC's msg::Transport adapters: CSP channels between two nodes (csp.hpp).
//   csp        blocking synchronous send (Comms1's "blocking communication", L630)
//   csp_async  non-blocking send, finished by wait_sends (Comms2 "using both blocking
//              and non-blocking communication", L630)
//   csp_buffered  asynchronous buffered send (L526): copied into the kernel, then sent
// One virtual link (0) per pair of nodes; the send buffer and the channel's receive
// buffer sit at fixed addresses of each host's memory, one pair per peer.
#include "niclab/systems/dsnic/transport.hpp"

#include <optional>

#include "niclab/msg/payload_pattern.hpp"
#include "niclab/sim/ring_queue.hpp"
#include "niclab/systems/dsnic/csp.hpp"

namespace niclab::dsnic {

namespace {

constexpr uint64_t kMaxMessage = 16ull << 20;
constexpr uint64_t kSendBase = 0x1000'0000, kRecvBase = 0x8000'0000, kStride = 0x0200'0000;  // 32 MB per peer

class CspTransport final : public msg::Transport {
public:
    enum class Mode { blocking, async, buffered };
    CspTransport(Driver& driver, uint32_t peer, uint64_t seed, Mode mode, host::HostMemory& memory)
        : driver_(driver), peer_(peer), seed_(seed), mode_(mode), memory_(memory) {}

    uint32_t node() const override { return driver_.node(); }
    uint32_t peer() const override { return peer_; }
    uint64_t received() const override { return received_; }

    void open(host::ProcessContext& ctx, uint64_t max_bytes) override {
        if (max_bytes > kMaxMessage) fail("messages of up to " + std::to_string(kMaxMessage) + " B, not " + std::to_string(max_bytes));
        if (mode_ == Mode::buffered && max_bytes > driver_.params().async_buffer_bytes)
            fail("buffered sends take messages of up to the kernel buffer's " + std::to_string(driver_.params().async_buffer_bytes) +
                 " B (dsnic.async_buffer_bytes), not " + std::to_string(max_bytes));
        max_ = max_bytes;
        ch_.emplace(CspChannel::open(ctx, driver_, 0, peer_, kRecvBase + peer_ * kStride, std::max<uint64_t>(max_bytes, 1)));
    }
    void prepare_send(host::ProcessContext& ctx, uint64_t bytes) override {
        check(bytes);
        wait_sends(ctx);
        bytes_ = bytes;
        msg::fill_pattern(memory_, send_addr(), bytes, msg::pattern_key(seed_, node(), bytes));
    }
    void send(host::ProcessContext& ctx, uint64_t tag) override {
        check(bytes_);
        switch (mode_) {
        case Mode::blocking: ch_->send(ctx, send_addr(), bytes_, uint32_t(tag)); break;
        case Mode::async: ch_->isend(ctx, send_addr(), bytes_, uint32_t(tag)); break;
        case Mode::buffered: ch_->bsend(ctx, send_addr(), bytes_, uint32_t(tag)); break;
        }
    }
    msg::Received recv(host::ProcessContext& ctx) override {
        check(0);
        if (ready_.empty()) take(ch_->recv(ctx));
        const msg::Received r = ready_.front();
        ready_.pop_front();
        return r;
    }
    void wait_sends(host::ProcessContext& ctx) override {
        if (ch_ && !ch_->sends_done()) ch_->wait(ctx);
    }
    void poll(host::ProcessContext& ctx) override {
        check(0);
        if (ch_->probe(ctx)) take(ch_->recv(ctx));
    }

private:
    uint64_t send_addr() const { return kSendBase + peer_ * kStride; }
    const char* name() const { return mode_ == Mode::blocking ? "csp" : mode_ == Mode::async ? "csp_async" : "csp_buffered"; }
    void check(uint64_t bytes) const {
        if (!ch_) fail("used before open()");
        if (bytes > max_) fail("a " + std::to_string(bytes) + "-byte message is larger than the " + std::to_string(max_) + " B opened for");
    }
    // Checks the message byte for byte where the receiving DMA put it (the channel's
    // buffer) before the next credit lets another one in.
    void take(const Message& m) {
        msg::check_pattern(memory_, ch_->rx_addr(), m.bytes, msg::pattern_key(seed_, peer_, m.bytes), node(), peer_, "CSP message");
        ready_.push_back({m.bytes, m.tag});
        ++received_;
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw msg::TransportError("node " + std::to_string(node()) + " (" + name() + " transport): " + what);
    }

    Driver& driver_;
    uint32_t peer_;
    uint64_t seed_;
    Mode mode_;
    host::HostMemory& memory_;
    std::optional<CspChannel> ch_;
    uint64_t max_ = 0, bytes_ = 0, received_ = 0;
    sim::RingQueue<msg::Received> ready_;
};

}  // namespace

std::vector<msg::TransportInfo> transport_infos() {
    return {
        {"csp", "CSP channel over a virtual link, blocking synchronous send (seed 003 §5)", {"send"}, kMaxMessage},
        {"csp_async", "CSP channel over a virtual link, non-blocking send + wait (seed 003 §5, Comms2)", {"send"}, kMaxMessage},
        {"csp_buffered", "CSP channel over a virtual link, asynchronous send buffered in the kernel (seed 003 §5); messages up to dsnic.async_buffer_bytes", {"send"}, kMaxMessage},
    };
}

std::unique_ptr<msg::Transport> make_transport(const std::string& name, Driver& driver, uint32_t peer, uint64_t seed,
                                               host::HostMemory& memory) {
    using Mode = CspTransport::Mode;
    if (name == "csp") return std::make_unique<CspTransport>(driver, peer, seed, Mode::blocking, memory);
    if (name == "csp_async") return std::make_unique<CspTransport>(driver, peer, seed, Mode::async, memory);
    if (name == "csp_buffered") return std::make_unique<CspTransport>(driver, peer, seed, Mode::buffered, memory);
    throw msg::TransportError("the DSNIC has no transport '" + name + "' (csp, csp_async, csp_buffered)");
}

}  // namespace niclab::dsnic
