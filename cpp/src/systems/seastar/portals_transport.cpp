#include "niclab/systems/seastar/portals_transport.hpp"

#include "niclab/msg/payload_pattern.hpp"

namespace niclab::seastar {

using namespace portals;
using msg::fill_pattern;
using msg::pattern_key;

namespace {

constexpr ptl_pt_index_t kPortal = 0;
constexpr ptl_match_bits_t kBits = 1;
// Gets are served out of their own buffer, filled once: a get of n bytes reads its prefix.
constexpr uint64_t kGetBuffer = 0x30000000;
constexpr uint64_t kGetKey = ~uint64_t{0};

}  // namespace

PortalsTransport::PortalsTransport(Nal& nal, host::HostMemory& memory, uint32_t peer, uint64_t seed, Limits limits,
                                   bool polled)
    : ni_(std::make_unique<Ni>(nal, 0, limits)), memory_(memory), node_(ni_->id().nid), peer_(peer), seed_(seed),
      polled_(polled) {}

PortalsTransport::~PortalsTransport() = default;

void PortalsTransport::open(host::ProcessContext& ctx, uint64_t max_bytes) {
    if (max_bytes > kMaxMessage)
        throw msg::TransportError("message size " + std::to_string(max_bytes) + " B exceeds the benchmark buffers (" +
                              std::to_string(kMaxMessage) + " B)");
    eq_ = ni_->eq_alloc(ctx, 1024);
    auto me = ni_->me_attach(ctx, kPortal, {peer_, 0}, kBits, 0, PTL_RETAIN, PTL_INS_AFTER);
    // Both kinds of traffic enter through this one entry: puts land in the receive
    // buffer, gets read the get buffer. Start events are not needed.
    ni_->md_attach(ctx, me, ptl_md(kRecvBuffer, max_bytes, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE, eq_),
                  PTL_RETAIN);
    auto me_get = ni_->me_attach(ctx, kPortal, {peer_, 0}, kBits << 1, 0, PTL_RETAIN, PTL_INS_AFTER);
    fill_pattern(memory_, kGetBuffer, max_bytes, pattern_key(seed_, node_, kGetKey));
    ni_->md_attach(ctx, me_get, ptl_md(kGetBuffer, max_bytes, PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE | PTL_MD_EVENT_END_DISABLE, eq_),
                  PTL_RETAIN);
}

void PortalsTransport::prepare_send(host::ProcessContext& ctx, uint64_t bytes) {
    wait_sends(ctx);
    if (send_md_ != PTL_INVALID_HANDLE) ni_->md_unlink(ctx, send_md_);
    fill_pattern(memory_, kSendBuffer, bytes, pattern_key(seed_, node_, bytes));
    send_md_ = ni_->md_bind(ctx, ptl_md(kSendBuffer, bytes, PTL_MD_EVENT_START_DISABLE, eq_), PTL_RETAIN);
}

void PortalsTransport::send(host::ProcessContext& ctx, uint64_t tag) {
    ++sends_started_;
    ni_->put(ctx, send_md_, PTL_NOACK_REQ, {peer_, 0}, kPortal, 0, kBits, 0, tag);
}

void PortalsTransport::get(host::ProcessContext& ctx, uint64_t bytes) {
    // The reply lands in an MD of exactly `bytes` over the receive buffer.
    auto md = ni_->md_bind(ctx, ptl_md(kRecvBuffer, bytes, PTL_MD_EVENT_START_DISABLE, eq_), PTL_RETAIN);
    const uint64_t before = replies_;
    ni_->get(ctx, md, {peer_, 0}, kPortal, 0, kBits << 1, 0);
    while (replies_ == before) next_event(ctx);
    ni_->md_unlink(ctx, md);
    check(pattern_key(seed_, peer_, kGetKey), bytes, "get reply");
}

msg::Received PortalsTransport::recv(host::ProcessContext& ctx) {
    while (pending_puts_ == 0) next_event(ctx);
    --pending_puts_;
    return {pending_put_.mlength, pending_put_.hdr_data};
}

void PortalsTransport::wait_sends(host::ProcessContext& ctx) {
    while (sends_done_ < sends_started_) next_event(ctx);
}

ptl_event_t PortalsTransport::next_event(host::ProcessContext& ctx) {
    ptl_event_t ev = ni_->eq_wait(ctx, eq_);
    handle(ev);
    return ev;
}

void PortalsTransport::handle(const ptl_event_t& ev) {
    if (ev.ni_fail_type != PTL_NI_OK)
        throw msg::TransportError("node " + std::to_string(node_) + ": Portals event " + std::to_string(int(ev.type)) +
                              " failed (ni_fail_type " + std::to_string(int(ev.ni_fail_type)) + ")");
    switch (ev.type) {
        case PTL_EVENT_SEND_END: ++sends_done_; break;
        case PTL_EVENT_REPLY_END:
            ++replies_;
            // A blocking get checks its reply itself; start_get's are checked here. All
            // replies of one size hold the same bytes, so a later reply already landing
            // in the buffer does not change what is checked.
            if (gets_answered_ < gets_started_) {
                ++gets_answered_;
                check(pattern_key(seed_, peer_, kGetKey), get_bytes_, "get reply");
            }
            break;
        case PTL_EVENT_PUT_END:
            check(pattern_key(seed_, peer_, ev.mlength), ev.mlength, "put");
            ++puts_received_;
            ++pending_puts_;
            pending_put_ = ev;
            break;
        default: break;
    }
}

void PortalsTransport::poll(host::ProcessContext& ctx) {
    for (;;) {
        ptl_event_t ev;
        const ptl_err_t rc = ni_->eq_get(ctx, eq_, ev);
        if (rc == PTL_EQ_EMPTY) return;
        if (rc != PTL_OK)
            throw msg::TransportError("node " + std::to_string(node_) + ": PtlEQGet returned " + std::to_string(int(rc)) +
                                  " (the event queue overflowed)");
        handle(ev);
    }
}

void PortalsTransport::prepare_get(host::ProcessContext& ctx, uint64_t bytes) {
    wait_replies(ctx, replies_ + (gets_started_ - gets_answered_));
    if (get_md_ != PTL_INVALID_HANDLE) ni_->md_unlink(ctx, get_md_);
    get_md_ = ni_->md_bind(ctx, ptl_md(kRecvBuffer, bytes, PTL_MD_EVENT_START_DISABLE, eq_), PTL_RETAIN);
    get_bytes_ = bytes;
}

void PortalsTransport::start_get(host::ProcessContext& ctx) {
    if (get_md_ == PTL_INVALID_HANDLE) throw msg::TransportError("start_get before prepare_get");
    ++gets_started_;
    ni_->get(ctx, get_md_, {peer_, 0}, kPortal, 0, kBits << 1, 0);
}

void PortalsTransport::wait_replies(host::ProcessContext& ctx, uint64_t total) {
    while (replies_ < total) next_event(ctx);
}

void PortalsTransport::serve_gets(host::ProcessContext& ctx) {
    if (!polled_) return;  // the kernel's interrupt handler takes the events
    for (;;) next_event(ctx);
}

void PortalsTransport::check(uint64_t key, uint64_t bytes, const char* what) const {
    msg::check_pattern(memory_, kRecvBuffer, bytes, key, node_, peer_, what);
}

}  // namespace niclab::seastar
