// JAM RPC: JAM_rpc / JAM_poll over JAM's PIO and RDMA (seed 002 §6.2).
#include <algorithm>
#include <array>
#include <string>

#include "niclab/systems/startx/jam_rpc.hpp"
#include "niclab/systems/startx/le_word.hpp"

namespace niclab::startx {

namespace {

// The 64-bit values (sizes, tags) travel as two words; the casts keep the low one.
void put32(uint8_t* p, uint64_t w) { store_le32(p, uint32_t(w)); }
uint64_t get32(const uint8_t* p) { return load_le32(p); }

constexpr uint32_t kFragment = kMaxPayloadWords * 4;  // 88 bytes per message

}  // namespace

JamRpc::JamRpc(Jam& jam, RpcParams params) : jam_(jam), params_(params), handlers_(kHandlers), assembly_(jam.params().max_nodes) {
    if (params_.max_arg_bytes == 0 || params_.max_arg_bytes > UINT32_MAX)
        throw DriverError("JAM RPC: the argument limit must be 1 B .. 4 GB");
    arg_base_ = jam_.allocate(uint64_t(jam.params().max_nodes) * params_.max_arg_bytes, 64);  // sparse: touched on use
    tx_buf_ = jam_.allocate(kMaxBytes, 64);
    rx_buf_ = jam_.allocate(kMaxBytes, 64);
    grant_buf_ = jam_.allocate(kMaxBytes, 64);  // grants go out while a call is being written
}

void JamRpc::set_handler(uint32_t index, Handler handler) {
    if (index >= kHandlers) throw DriverError("JAM RPC: handler index " + std::to_string(index) + " is not below 256");
    handlers_[index] = std::move(handler);
}

void JamRpc::send_low(host::ProcessContext& ctx, uint32_t dst, uint32_t word1, uint64_t buf, uint32_t words) {
    // While the low-priority queue is full, take arriving messages (the peer may be
    // sending to us just as hard).
    jam_.poll_until(
        ctx,
        [&] {
            while (jam_.known_tx_space(Priority::low) == 0 && jam_.known_rx(Priority::low) > 0) take(ctx);
            return jam_.known_tx_space(Priority::low) > 0;
        },
        [&] { return jam_.niu().tx_space(Priority::low) > 0 || jam_.niu().rx_messages(Priority::low) > 0; });
    jam_.send(ctx, dst, Priority::low, word1, buf, words);
}

void JamRpc::call(host::ProcessContext& ctx, uint32_t dst, uint32_t handler, uint64_t addr, uint64_t bytes,
                  uint64_t tag) {
    if (handler >= kHandlers) throw DriverError("JAM_rpc: handler index " + std::to_string(handler) + " is not below 256");
    if (bytes > params_.max_arg_bytes)
        throw DriverError("JAM_rpc: a " + std::to_string(bytes) + "-byte argument, beyond " + std::to_string(params_.max_arg_bytes));
    jam_.charge(ctx, params_.lock_cycles);
    JamWord w;
    w.sender = jam_.node();
    if (bytes > params_.pio_max_bytes) {
        std::array<uint8_t, 16> b{};
        put32(&b[0], bytes);
        put32(&b[4], tag);
        put32(&b[8], tag >> 32);
        put32(&b[12], handler);
        jam_.memory().write(tx_buf_, b);
        w.kind = JamKind::control;
        w.low = uint32_t(JamControl::rdma_request);
        send_low(ctx, dst, w.pack(), tx_buf_, 4);
        out_.push_back({dst, handler, addr, bytes, tag, false});
        return;
    }
    // PIO: RPC header + argument as a stream of 88-byte messages.
    const uint64_t total = kHeaderBytes + bytes;
    const uint64_t n = (total + kFragment - 1) / kFragment;
    std::array<uint8_t, kMaxBytes> first{};
    put32(&first[0], handler);
    put32(&first[4], bytes);
    put32(&first[8], tag);
    put32(&first[12], tag >> 32);
    const uint32_t head = uint32_t(std::min<uint64_t>(bytes, kFragment - kHeaderBytes));
    jam_.memory().read(addr, std::span<uint8_t>(&first[kHeaderBytes], head));
    jam_.memory().write(tx_buf_, std::span<const uint8_t>(first.data(), kHeaderBytes + head));
    jam_.charge(ctx, jam_.params().word_cycles * ((kHeaderBytes + head + 7) / 8));  // composing the first message
    w.kind = JamKind::rpc;
    for (uint64_t k = 0; k < n; ++k) {
        const uint32_t chunk = uint32_t(std::min<uint64_t>(kFragment, total - k * kFragment));
        const uint32_t words = payload_words_for(chunk);
        w.first = k == 0;
        w.last = k + 1 == n;
        w.pad = words * 4 - chunk;
        const uint64_t src = k == 0 ? tx_buf_ : addr + k * kFragment - kHeaderBytes;
        send_low(ctx, dst, w.pack(), src, words);
    }
}

uint32_t JamRpc::poll(host::ProcessContext& ctx) {
    jam_.charge(ctx, params_.lock_cycles);
    uint32_t work = 0;
    bool status_read = false;
    if (jam_.known_rx(Priority::low) == 0) {
        jam_.read_status(ctx);
        status_read = true;
    }
    while (jam_.known_rx(Priority::low) > 0) {
        take(ctx);
        ++work;
    }
    if ((window_open_ || tx_active_) && !status_read) jam_.read_status(ctx);
    const Status& s = jam_.last_status();
    if (window_open_ && s.rdma_window_done) {
        const Incoming c = in_.front();
        in_.pop_front();
        window_open_ = false;
        dispatch(ctx, {c.src, c.handler, arg_region(c.src), c.bytes, c.tag});
        open_next_window(ctx);
        ++work;
    }
    if (tx_active_ && !s.tx_dma_busy) {
        tx_active_ = false;
        out_.pop_front();
        ++work;
    }
    if (!tx_active_ && !out_.empty() && out_.front().granted) {
        const Outgoing& o = out_.front();
        JamWord w;
        w.sender = jam_.node();
        w.kind = JamKind::rpc;
        w.first = w.last = true;
        w.low = o.handler;
        jam_.rdma_headers(ctx, o.dst, w.pack());
        jam_.rdma_transmit(ctx, o.addr, std::max<uint64_t>(4, (o.bytes + 3) & ~uint64_t(3)));
        tx_active_ = true;
        ++work;
    }
    return work;
}

bool JamRpc::work_known() const {
    const Status& s = jam_.last_status();
    return jam_.known_rx(Priority::low) > 0 || (window_open_ && s.rdma_window_done) || (tx_active_ && !s.tx_dma_busy);
}

void JamRpc::wait(host::ProcessContext& ctx) {
    Niu& niu = jam_.niu();
    jam_.poll_until(ctx, [&] { return work_known(); },
                    [&] {
                        return niu.rx_messages(Priority::low) > 0 || (window_open_ && niu.rdma_window_done()) ||
                               (tx_active_ && !niu.tx_dma_busy());
                    });
}

void JamRpc::take(host::ProcessContext& ctx) {
    const JamMessage m = jam_.receive(ctx, Priority::low, rx_buf_);
    if (m.word.sender >= assembly_.size())
        throw DriverError("JAM RPC: node " + std::to_string(jam_.node()) + " got a message from unknown node " + std::to_string(m.word.sender));
    if (m.word.kind == JamKind::control) handle_control(ctx, m);
    else if (m.word.kind == JamKind::rpc) handle_fragment(ctx, m);
    else throw DriverError("JAM RPC: node " + std::to_string(jam_.node()) + " got a non-RPC message on the low-priority queue");
}

void JamRpc::handle_fragment(host::ProcessContext& ctx, const JamMessage& m) {
    Assembly& a = assembly_[m.word.sender];
    const uint32_t bytes = m.payload_words * 4 - m.word.pad;
    std::array<uint8_t, kMaxBytes> b{};
    jam_.memory().read(m.payload_addr, std::span<uint8_t>(b.data(), bytes));
    uint32_t skip = 0;
    if (m.word.first) {
        if (a.active) throw DriverError("JAM RPC: a new call from node " + std::to_string(m.word.sender) + " before the last one ended");
        a = {true, uint32_t(get32(&b[0])), get32(&b[4]), get32(&b[8]) | get32(&b[12]) << 32, 0};
        if (a.bytes > params_.max_arg_bytes) throw DriverError("JAM RPC: an argument beyond the limit");
        skip = kHeaderBytes;
    } else if (!a.active) {
        throw DriverError("JAM RPC: a message of a call from node " + std::to_string(m.word.sender) + " that never began");
    }
    const uint32_t data = bytes - skip;
    if (a.offset + data > a.bytes) throw DriverError("JAM RPC: a call longer than its header said");
    jam_.memory().write(arg_region(m.word.sender) + a.offset, std::span<const uint8_t>(&b[skip], data));
    jam_.charge(ctx, jam_.params().word_cycles * ((data + 7) / 8));  // into the argument buffer
    a.offset += data;
    if (!m.word.last) return;
    a.active = false;
    if (a.offset != a.bytes) throw DriverError("JAM RPC: a call ended short of its size");
    dispatch(ctx, {m.word.sender, a.handler, arg_region(m.word.sender), a.bytes, a.tag});
}

void JamRpc::handle_control(host::ProcessContext& ctx, const JamMessage& m) {
    std::array<uint8_t, 16> b{};
    jam_.memory().read(m.payload_addr, std::span<uint8_t>(b.data(), std::min<uint32_t>(16, m.payload_words * 4)));
    switch (JamControl(m.word.low)) {
    case JamControl::rdma_request:
        in_.push_back({m.word.sender, uint32_t(get32(&b[12])), get32(&b[0]), get32(&b[4]) | get32(&b[8]) << 32});
        if (!window_open_) open_next_window(ctx);
        break;
    case JamControl::rdma_grant: {
        auto it = std::find_if(out_.begin(), out_.end(), [&](const Outgoing& o) { return o.dst == m.word.sender && !o.granted; });
        if (it == out_.end()) throw DriverError("JAM RPC: a grant from node " + std::to_string(m.word.sender) + " nobody asked for");
        it->granted = true;
        break;
    }
    default: throw DriverError("JAM RPC: unknown control code " + std::to_string(m.word.low));
    }
}

void JamRpc::open_next_window(host::ProcessContext& ctx) {
    if (window_open_ || in_.empty()) return;
    const Incoming& c = in_.front();
    jam_.rdma_open_window(ctx, arg_region(c.src), std::max<uint64_t>(4, (c.bytes + 3) & ~uint64_t(3)), c.src);
    window_open_ = true;
    JamWord w;
    w.sender = jam_.node();
    w.kind = JamKind::control;
    w.low = uint32_t(JamControl::rdma_grant);
    send_low(ctx, c.src, w.pack(), grant_buf_, 2);
}

void JamRpc::dispatch(host::ProcessContext& ctx, const RpcCall& call) {
    jam_.charge(ctx, params_.dispatch_cycles);
    const Handler& h = handlers_[call.handler];
    if (!h) throw DriverError("JAM RPC: node " + std::to_string(jam_.node()) + " has no handler " + std::to_string(call.handler));
    h(ctx, call);
}

}  // namespace niclab::startx
