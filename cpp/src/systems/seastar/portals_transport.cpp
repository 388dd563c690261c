#include "niclab/systems/seastar/portals_transport.hpp"

#include <algorithm>

#include "niclab/msg/payload_pattern.hpp"

namespace niclab::seastar {

using namespace portals;
using msg::fill_pattern;
using msg::pattern_key;

namespace {

constexpr ptl_pt_index_t kPortal = 0;
constexpr ptl_match_bits_t kBits = 1;
// Gets are served out of their own buffer, filled once: a get of n bytes reads its prefix.
constexpr uint64_t kGetKey = ~uint64_t{0};
// A later transport's buffers start on a fresh 64 KB boundary, as the first one's do.
constexpr uint64_t kPlaceAlign = 0x10000;

}  // namespace

PortalsProcess::PortalsProcess(Nal& nal, Limits limits, bool polled)
    : nal_(nal), ni_(std::make_unique<Ni>(nal, 0, limits)), polled_(polled) {}

ptl_handle_eq_t PortalsProcess::eq(host::ProcessContext& ctx) {
    if (eq_ == PTL_EQ_NONE) eq_ = ni_->eq_alloc(ctx, 1024);
    return eq_;
}

uint64_t PortalsProcess::place(uint64_t max_bytes, uint32_t node) {
    const uint64_t at = placed_;
    placed_ += (std::max<uint64_t>(max_bytes, 1) + kPlaceAlign - 1) & ~(kPlaceAlign - 1);
    if (at > 0 && placed_ > PortalsTransport::kSlotBytes)
        throw msg::TransportError("node " + std::to_string(node) + ": the process's " + std::to_string(transports_.size()) +
                                  " transports need " + std::to_string(placed_) + " B of buffers of each kind; they share " +
                                  std::to_string(PortalsTransport::kSlotBytes) + " B");
    return at;
}

void PortalsProcess::remove(PortalsTransport* t) {
    transports_.erase(std::remove(transports_.begin(), transports_.end(), t), transports_.end());
}

void PortalsProcess::route(const ptl_event_t& ev) {
    for (PortalsTransport* t : transports_)
        if (t->owns(ev.md_handle)) return t->handle(ev);
    throw msg::TransportError("node " + std::to_string(ni_->id().nid) + ": Portals event " + ptl_event_str(ev.type) +
                              " names an MD no transport of the process owns");
}

void PortalsProcess::next_event(host::ProcessContext& ctx) { route(ni_->eq_wait(ctx, eq_)); }

void PortalsProcess::poll(host::ProcessContext& ctx) {
    for (;;) {
        ptl_event_t ev;
        const ptl_err_t rc = ni_->eq_get(ctx, eq_, ev);
        if (rc == PTL_EQ_EMPTY) return;
        if (rc != PTL_OK)
            throw msg::TransportError("node " + std::to_string(ni_->id().nid) + ": PtlEQGet returned " + std::to_string(int(rc)) +
                                      " (the event queue overflowed)");
        route(ev);
    }
}

PortalsTransport::PortalsTransport(std::shared_ptr<PortalsProcess> process, host::HostMemory& memory, uint32_t peer,
                                   uint64_t seed)
    : process_(std::move(process)), ni_(process_->ni()), memory_(memory), node_(ni_.id().nid), peer_(peer), seed_(seed) {
    process_->add(this);
}

PortalsTransport::~PortalsTransport() { process_->remove(this); }

void PortalsTransport::open(host::ProcessContext& ctx, uint64_t max_bytes) {
    if (max_bytes > kMaxMessage)
        throw msg::TransportError("message size " + std::to_string(max_bytes) + " B exceeds the benchmark buffers (" +
                              std::to_string(kMaxMessage) + " B)");
    offset_ = process_->place(max_bytes, node_);
    eq_ = process_->eq(ctx);
    auto me = ni_.me_attach(ctx, kPortal, {peer_, 0}, kBits, 0, PTL_RETAIN, PTL_INS_AFTER);
    // Both kinds of traffic enter through this one entry: puts land in the receive
    // buffer, gets read the get buffer. Start events are not needed.
    recv_md_ = ni_.md_attach(ctx, me, ptl_md(kRecvBuffer + offset_, max_bytes, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE, eq_),
                             PTL_RETAIN);
    auto me_get = ni_.me_attach(ctx, kPortal, {peer_, 0}, kBits << 1, 0, PTL_RETAIN, PTL_INS_AFTER);
    fill_pattern(memory_, kGetBuffer + offset_, max_bytes, pattern_key(seed_, node_, kGetKey));
    ni_.md_attach(ctx, me_get, ptl_md(kGetBuffer + offset_, max_bytes, PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE | PTL_MD_EVENT_END_DISABLE, eq_),
                  PTL_RETAIN);
}

void PortalsTransport::prepare_send(host::ProcessContext& ctx, uint64_t bytes) {
    wait_sends(ctx);
    if (send_md_ != PTL_INVALID_HANDLE) ni_.md_unlink(ctx, send_md_);
    fill_pattern(memory_, kSendBuffer + offset_, bytes, pattern_key(seed_, node_, bytes));
    send_md_ = ni_.md_bind(ctx, ptl_md(kSendBuffer + offset_, bytes, PTL_MD_EVENT_START_DISABLE, eq_), PTL_RETAIN);
}

void PortalsTransport::send(host::ProcessContext& ctx, uint64_t tag) {
    ++sends_started_;
    ni_.put(ctx, send_md_, PTL_NOACK_REQ, {peer_, 0}, kPortal, 0, kBits, 0, tag);
}

void PortalsTransport::get(host::ProcessContext& ctx, uint64_t bytes) {
    // The reply lands in an MD of exactly `bytes` over the receive buffer.
    blocking_get_md_ = ni_.md_bind(ctx, ptl_md(kRecvBuffer + offset_, bytes, PTL_MD_EVENT_START_DISABLE, eq_), PTL_RETAIN);
    const uint64_t before = replies_;
    ni_.get(ctx, blocking_get_md_, {peer_, 0}, kPortal, 0, kBits << 1, 0);
    while (replies_ == before) process_->next_event(ctx);
    ni_.md_unlink(ctx, blocking_get_md_);
    blocking_get_md_ = PTL_INVALID_HANDLE;
    check(pattern_key(seed_, peer_, kGetKey), bytes, "get reply");
}

msg::Received PortalsTransport::recv(host::ProcessContext& ctx) {
    while (pending_puts_ == 0) process_->next_event(ctx);
    --pending_puts_;
    return {pending_put_.mlength, pending_put_.hdr_data};
}

void PortalsTransport::wait_sends(host::ProcessContext& ctx) {
    while (sends_done_ < sends_started_) process_->next_event(ctx);
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

void PortalsTransport::poll(host::ProcessContext& ctx) { process_->poll(ctx); }

void PortalsTransport::prepare_get(host::ProcessContext& ctx, uint64_t bytes) {
    wait_replies(ctx, replies_ + (gets_started_ - gets_answered_));
    if (get_md_ != PTL_INVALID_HANDLE) ni_.md_unlink(ctx, get_md_);
    get_md_ = ni_.md_bind(ctx, ptl_md(kRecvBuffer + offset_, bytes, PTL_MD_EVENT_START_DISABLE, eq_), PTL_RETAIN);
    get_bytes_ = bytes;
}

void PortalsTransport::start_get(host::ProcessContext& ctx) {
    if (get_md_ == PTL_INVALID_HANDLE) throw msg::TransportError("start_get before prepare_get");
    ++gets_started_;
    ni_.get(ctx, get_md_, {peer_, 0}, kPortal, 0, kBits << 1, 0);
}

void PortalsTransport::wait_replies(host::ProcessContext& ctx, uint64_t total) {
    while (replies_ < total) process_->next_event(ctx);
}

void PortalsTransport::serve_gets(host::ProcessContext& ctx) {
    if (!process_->polled()) return;  // the kernel's interrupt handler takes the events
    for (;;) process_->next_event(ctx);
}

void PortalsTransport::check(uint64_t key, uint64_t bytes, const char* what) const {
    msg::check_pattern(memory_, kRecvBuffer + offset_, bytes, key, node_, peer_, what);
}

}  // namespace niclab::seastar
