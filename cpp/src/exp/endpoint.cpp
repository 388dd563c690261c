#include "niclab/exp/endpoint.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>
#include <cstring>
#include <string>

#include "niclab/exp/options.hpp"

namespace niclab::exp {

using namespace portals;

namespace {

constexpr ptl_pt_index_t kPortal = 0;
constexpr ptl_match_bits_t kBits = 1;
// Gets are served out of their own buffer, filled once: a get of n bytes reads its prefix.
constexpr uint64_t kGetBuffer = 0x30000000;
constexpr uint64_t kGetKey = ~uint64_t{0};
constexpr size_t kChunk = 64 * 1024;

uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Byte i of the pattern `key` (seed, sender, size); depends on the position, so any
// misplaced, missing or stale byte shows. `first` is a multiple of 8 (chunks start
// at multiples of kChunk): one 64-bit word of the generator gives eight bytes.
void pattern_chunk(uint64_t key, uint64_t first, std::span<uint8_t> out) {
    for (size_t i = 0; i < out.size(); i += 8) {
        const uint64_t word = splitmix64(key ^ ((first + i) >> 3));
        const size_t n = std::min<size_t>(8, out.size() - i);
        for (size_t b = 0; b < n; ++b) out[i + b] = uint8_t(word >> (8 * b));
    }
}

uint64_t pattern_key(uint64_t seed, uint32_t from, uint64_t bytes) {
    return splitmix64(seed ^ (uint64_t(from) << 40) ^ splitmix64(bytes));
}

// Scratch for patterns and checks: these run inside host-process fibers, whose stacks
// are small, so the chunks live off the stack (allocated once per thread).
std::span<uint8_t> scratch(int which) {
    static thread_local std::vector<uint8_t> buffers[2] = {std::vector<uint8_t>(kChunk), std::vector<uint8_t>(kChunk)};
    return buffers[which];
}

void fill_pattern(host::HostMemory& memory, uint64_t addr, uint64_t bytes, uint64_t key) {
    auto chunk = scratch(0);
    for (uint64_t done = 0; done < bytes; done += kChunk) {
        const size_t n = size_t(std::min<uint64_t>(kChunk, bytes - done));
        pattern_chunk(key, done, chunk.first(n));
        memory.write(addr + done, chunk.first(n));
    }
}

}  // namespace

Endpoint::Endpoint(Ni& ni, host::HostMemory& memory, uint32_t peer, uint64_t seed)
    : ni_(ni), memory_(memory), node_(ni.id().nid), peer_(peer), seed_(seed) {}

void Endpoint::open(host::ProcessContext& ctx, uint64_t max_bytes) {
    if (max_bytes > kMaxMessage)
        throw ExperimentError("message size " + std::to_string(max_bytes) + " B exceeds the benchmark buffers (" +
                              std::to_string(kMaxMessage) + " B)");
    eq_ = ni_.eq_alloc(ctx, 1024);
    auto me = ni_.me_attach(ctx, kPortal, {peer_, 0}, kBits, 0, PTL_RETAIN, PTL_INS_AFTER);
    // Both kinds of traffic enter through this one entry: puts land in the receive
    // buffer, gets read the get buffer. Start events are not needed.
    ni_.md_attach(ctx, me, ptl_md(kRecvBuffer, max_bytes, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE, eq_),
                  PTL_RETAIN);
    auto me_get = ni_.me_attach(ctx, kPortal, {peer_, 0}, kBits << 1, 0, PTL_RETAIN, PTL_INS_AFTER);
    fill_pattern(memory_, kGetBuffer, max_bytes, pattern_key(seed_, node_, kGetKey));
    ni_.md_attach(ctx, me_get, ptl_md(kGetBuffer, max_bytes, PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE | PTL_MD_EVENT_END_DISABLE, eq_),
                  PTL_RETAIN);
}

void Endpoint::prepare_send(host::ProcessContext& ctx, uint64_t bytes) {
    wait_sends(ctx);
    if (send_md_ != PTL_INVALID_HANDLE) ni_.md_unlink(ctx, send_md_);
    fill_pattern(memory_, kSendBuffer, bytes, pattern_key(seed_, node_, bytes));
    send_md_ = ni_.md_bind(ctx, ptl_md(kSendBuffer, bytes, PTL_MD_EVENT_START_DISABLE, eq_), PTL_RETAIN);
    send_bytes_ = bytes;
}

void Endpoint::put(host::ProcessContext& ctx, uint64_t hdr_data) {
    ++sends_started_;
    ni_.put(ctx, send_md_, PTL_NOACK_REQ, {peer_, 0}, kPortal, 0, kBits, 0, hdr_data);
}

void Endpoint::get(host::ProcessContext& ctx, uint64_t bytes) {
    // The reply lands in an MD of exactly `bytes` over the receive buffer.
    auto md = ni_.md_bind(ctx, ptl_md(kRecvBuffer, bytes, PTL_MD_EVENT_START_DISABLE, eq_), PTL_RETAIN);
    const uint64_t before = replies_;
    ni_.get(ctx, md, {peer_, 0}, kPortal, 0, kBits << 1, 0);
    while (replies_ == before) next_event(ctx);
    ni_.md_unlink(ctx, md);
    check(pattern_key(seed_, peer_, kGetKey), bytes, "get reply");
}

ptl_event_t Endpoint::wait_put(host::ProcessContext& ctx) {
    while (pending_puts_ == 0) next_event(ctx);
    --pending_puts_;
    return pending_put_;
}

void Endpoint::wait_sends(host::ProcessContext& ctx) {
    while (sends_done_ < sends_started_) next_event(ctx);
}

ptl_event_t Endpoint::next_event(host::ProcessContext& ctx) {
    ptl_event_t ev = ni_.eq_wait(ctx, eq_);
    handle(ev);
    return ev;
}

void Endpoint::handle(const ptl_event_t& ev) {
    if (ev.ni_fail_type != PTL_NI_OK)
        throw ExperimentError("node " + std::to_string(node_) + ": Portals event " + std::to_string(int(ev.type)) +
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

void Endpoint::poll(host::ProcessContext& ctx) {
    for (;;) {
        ptl_event_t ev;
        const ptl_err_t rc = ni_.eq_get(ctx, eq_, ev);
        if (rc == PTL_EQ_EMPTY) return;
        if (rc != PTL_OK)
            throw ExperimentError("node " + std::to_string(node_) + ": PtlEQGet returned " + std::to_string(int(rc)) +
                                  " (the event queue overflowed)");
        handle(ev);
    }
}

void Endpoint::prepare_get(host::ProcessContext& ctx, uint64_t bytes) {
    wait_replies(ctx, replies_ + (gets_started_ - gets_answered_));
    if (get_md_ != PTL_INVALID_HANDLE) ni_.md_unlink(ctx, get_md_);
    get_md_ = ni_.md_bind(ctx, ptl_md(kRecvBuffer, bytes, PTL_MD_EVENT_START_DISABLE, eq_), PTL_RETAIN);
    get_bytes_ = bytes;
}

void Endpoint::start_get(host::ProcessContext& ctx) {
    if (get_md_ == PTL_INVALID_HANDLE) throw ExperimentError("start_get before prepare_get");
    ++gets_started_;
    ni_.get(ctx, get_md_, {peer_, 0}, kPortal, 0, kBits << 1, 0);
}

void Endpoint::wait_replies(host::ProcessContext& ctx, uint64_t total) {
    while (replies_ < total) next_event(ctx);
}

void Endpoint::check(uint64_t key, uint64_t bytes, const char* what) const {
    auto got = scratch(0), want = scratch(1);
    for (uint64_t done = 0; done < bytes; done += kChunk) {
        const size_t n = size_t(std::min<uint64_t>(kChunk, bytes - done));
        memory_.read(kRecvBuffer + done, got.first(n));
        pattern_chunk(key, done, want.first(n));
        if (std::memcmp(got.data(), want.data(), n) == 0) continue;
        size_t i = 0;
        while (got[i] == want[i]) ++i;
        char detail[96];
        std::snprintf(detail, sizeof detail, " at offset %llu: expected 0x%02x, found 0x%02x",
                      static_cast<unsigned long long>(done + i), want[i], got[i]);
        throw ExperimentError("node " + std::to_string(node_) + " received wrong data in a " + std::to_string(bytes) +
                              "-byte " + what + " from node " + std::to_string(peer_) + detail);
    }
}

}  // namespace niclab::exp
