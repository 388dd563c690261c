// The pio, pio64, vi and vi_tx transports: a transfer of n bytes as a stream of StarT-X
// messages from the peer, reassembled by the receiver (transport.hpp says what each moves).
// vi_tx writes a send's messages into one of two VI transmit regions and starts the TX DMA
// with one driver call: the next send composes into the other region while the DMA reads
// this one, and waits for the engine only before its own driver call.
#include <algorithm>
#include <array>
#include <vector>

#include "transport_base.hpp"
#include "transport_factory.hpp"

namespace niclab::startx {

namespace {

constexpr Priority kPri = Priority::high;  // Table 1: high-priority messages (L202); VI is high only

class StreamTransport final : public JamTransportBase, public StreamReceiver {
public:
    StreamTransport(std::string name, StreamMode mode, const TransportContext& tc, uint32_t peer, uint64_t seed)
        : JamTransportBase(std::move(name), tc.jam, peer, seed), mode_(mode), vi_bytes_(tc.vi_buffer_bytes),
          receivers_(tc.receivers) {
        if (!receivers_) return;
        for (const auto& [p, r] : *receivers_)
            if (p == peer) protocol_error("node " + std::to_string(peer) + " is the peer of another of this node's transports already");
        receivers_->emplace_back(peer, this);
    }
    ~StreamTransport() override {
        if (!receivers_) return;
        std::erase_if(*receivers_, [this](const auto& e) { return e.second == this; });
    }

    void open(host::ProcessContext& ctx, uint64_t max_bytes) override {
        check_size(max_bytes, kMaxTransportMessage);
        max_bytes_ = std::max<uint64_t>(max_bytes, 1);
        const uint64_t bytes = fragments(max_bytes_) * slot() + kMaxBytes;
        send_buf_ = jam_.allocate(bytes, 64);
        recv_buf_ = jam_.allocate(bytes, 64);
        ctl_buf_ = jam_.allocate(64, 64);
        if (mode_ == StreamMode::vi_tx) {
            // Every fragment as a whole message, plus a tag descriptor, per region.
            vi_tx_bytes_ = (fragments(max_bytes_) + 1) * kMaxBytes;
            for (uint64_t& r : vi_tx_region_) r = jam_.allocate(vi_tx_bytes_, 64);
        }
        if (vi_receive() && !jam_.vi_armed()) {
            const uint64_t region = jam_.allocate(vi_bytes_, 64);
            jam_.vi_arm_receive(ctx, region, vi_bytes_);
        }
        opened_ = true;
    }

    void prepare_send(host::ProcessContext&, uint64_t bytes) override {
        check_open(bytes);
        send_bytes_ = bytes;
        const uint64_t key = send_key(bytes);
        if (mode_ != StreamMode::pio64) {
            msg::fill_pattern(jam_.memory(), send_buf_, bytes, key);
            return;
        }
        // 64-byte slots: the header words are written at send time, the payload now.
        std::array<uint8_t, 56> chunk{};
        for (uint64_t k = 0, f = fragments(bytes); k < f; ++k) {
            const uint32_t n = fragment_bytes(bytes, k);
            msg::pattern_chunk(key, k * capacity(), std::span<uint8_t>(chunk.data(), n));
            jam_.memory().write(send_buf_ + 64 * k + 8, std::span<const uint8_t>(chunk.data(), n));
        }
    }

    void send(host::ProcessContext& ctx, uint64_t tag) override {
        if (!opened_) check_open(0);
        const uint64_t n = send_bytes_;
        const bool repeat = have_sent_tag_ && tag == sent_tag_;
        vi_batch_ = 0;  // vi_tx: the descriptor and every fragment go in one batch
        if (!repeat && tag >= kInlineTagLimit) send_tag_descriptor(ctx, tag);
        const uint64_t f = fragments(n);
        for (uint64_t k = 0; k < f; ++k) {
            const uint32_t bytes = fragment_bytes(n, k);
            const uint32_t words = mode_ == StreamMode::pio64 ? 16 - kHeaderWords : payload_words_for(bytes);
            JamWord w;
            w.sender = node();
            w.kind = JamKind::stream;
            w.first = k == 0;
            w.last = k + 1 == f;
            w.repeat = k == 0 && repeat;
            w.pad = words * 4 - bytes;
            w.low = (k == 0 && !repeat && tag < kInlineTagLimit) ? uint32_t(tag) : 0;
            transmit(ctx, w.pack(), k, words);
        }
        if (mode_ == StreamMode::vi_tx) start_vi_batch(ctx);
        sent_tag_ = tag;
        have_sent_tag_ = true;
    }

    msg::Received recv(host::ProcessContext& ctx) override {
        if (!opened_) check_open(0);
        while (ready_.empty()) take(ctx, true);
        return pop_ready();
    }

    void wait_sends(host::ProcessContext& ctx) override {
        // PIO: the CPU read the buffer as it stored. vi_tx: the last batch leaves its region.
        if (mode_ != StreamMode::vi_tx || !vi_pending_) return;
        jam_.wait_tx_dma(ctx);
        vi_pending_ = false;
    }

    void poll(host::ProcessContext& ctx) override {
        if (!opened_) check_open(0);
        if (vi_receive()) {
            JamMessage m;
            while (jam_.vi_peek(ctx, m)) process(ctx, m);
            return;
        }
        if (!jam_.rx_ready(ctx, kPri)) return;  // at most one status read
        while (jam_.known_rx(kPri) > 0) take(ctx, false);
    }

private:
    bool vi_receive() const { return mode_ == StreamMode::vi || mode_ == StreamMode::vi_tx; }
    uint64_t vi_region() const { return vi_tx_region_[vi_sent_ % 2]; }

    // One driver call for the batch composed in the current region; the engine must have
    // finished the previous batch (one status read says so).
    void start_vi_batch(host::ProcessContext& ctx) {
        if (vi_pending_) jam_.wait_tx_dma(ctx);
        jam_.vi_transmit(ctx, vi_region(), vi_batch_);
        vi_pending_ = true;
        ++vi_sent_;
    }

    uint32_t capacity() const { return mode_ == StreamMode::pio64 ? 56 : kMaxPayloadWords * 4; }
    uint32_t slot() const { return mode_ == StreamMode::pio64 ? 64 : capacity(); }
    uint64_t fragments(uint64_t n) const { return std::max<uint64_t>(1, (n + capacity() - 1) / capacity()); }
    uint32_t fragment_bytes(uint64_t n, uint64_t k) const {
        return uint32_t(std::min<uint64_t>(capacity(), n > k * capacity() ? n - k * capacity() : 0));
    }

    // Sends one message; while the transmit queue is full, takes arriving messages so
    // two senders facing each other cannot hold each other up (Table 1's LogP runs reply
    // to every message, 002 §6.1.1 L200).
    void transmit(host::ProcessContext& ctx, uint32_t word1, uint64_t k, uint32_t words) {
        Niu& niu = jam_.niu();
        if (mode_ == StreamMode::vi_tx) {  // the TX DMA waits for queue space, not the CPU
            vi_batch_ += jam_.vi_compose(ctx, vi_region() + vi_batch_, peer_, word1, send_buf_ + k * capacity(), words);
            return;
        }
        if (mode_ == StreamMode::vi) {
            jam_.wait_tx_space(ctx, kPri);
        } else {
            jam_.poll_until(
                ctx,
                [&] {
                    while (jam_.known_tx_space(kPri) == 0 && jam_.known_rx(kPri) > 0) take(ctx, false);
                    return jam_.known_tx_space(kPri) > 0;
                },
                [&] { return niu.tx_space(kPri) > 0 || niu.rx_messages(kPri) > 0; });
        }
        if (mode_ == StreamMode::pio64) {
            const uint64_t slot_addr = send_buf_ + 64 * k;
            jam_.format64(ctx, slot_addr, peer_, kPri, word1);
            jam_.send64(ctx, kPri, slot_addr);
        } else {
            jam_.send(ctx, peer_, kPri, word1, send_buf_ + k * capacity(), words);
        }
    }

    void send_tag_descriptor(host::ProcessContext& ctx, uint64_t tag) {
        JamWord w;
        w.sender = node();
        w.kind = JamKind::control;
        w.low = uint32_t(JamControl::tag_descriptor);
        std::array<uint8_t, 8> t{};
        for (int b = 0; b < 8; ++b) t[b] = uint8_t(tag >> (8 * b));
        const uint64_t payload = mode_ == StreamMode::pio64 ? ctl_buf_ + 8 : ctl_buf_;
        jam_.memory().write(payload, t);
        if (mode_ == StreamMode::vi_tx) {  // first in the batch send() is composing
            vi_batch_ += jam_.vi_compose(ctx, vi_region() + vi_batch_, peer_, w.pack(), ctl_buf_, 2);
            return;
        }
        if (mode_ == StreamMode::vi) jam_.wait_tx_space(ctx, kPri);
        else jam_.poll_until(ctx, [&] { return jam_.known_tx_space(kPri) > 0; }, [&] { return jam_.niu().tx_space(kPri) > 0; });
        if (mode_ == StreamMode::pio64) {
            jam_.format64(ctx, ctl_buf_, peer_, kPri, w.pack());
            jam_.send64(ctx, kPri, ctl_buf_);
        } else {
            jam_.send(ctx, peer_, kPri, w.pack(), ctl_buf_, 2);
        }
    }

    // Takes the next message (blocking: polls until one comes) and hands it to the
    // transport of its sender: this one, or another of the node's (a halo exchange).
    void take(host::ProcessContext& ctx, bool blocking) {
        JamMessage m;
        const Jam::Landing land = [this](uint32_t sender) { return owner(sender).landing(); };
        switch (mode_) {
        case StreamMode::vi:
        case StreamMode::vi_tx:
            if (blocking) m = jam_.vi_wait(ctx);
            else if (!jam_.vi_peek(ctx, m)) return;
            break;
        case StreamMode::pio64: m = jam_.receive64(ctx, kPri, land); break;
        case StreamMode::pio: m = jam_.receive(ctx, kPri, land); break;
        }
        owner(m.word.sender).process(ctx, m);
    }

    StreamReceiver& owner(uint32_t sender) {
        if (sender == peer_) return *this;
        if (receivers_)
            for (const auto& [p, r] : *receivers_)
                if (p == sender) return *r;
        protocol_error("a message from node " + std::to_string(sender) + ", the peer of none of this node's transports (this one's is node " +
                       std::to_string(peer_) + ")");
    }

public:
    // Where the next PIO message from the peer lands in the receive buffer.
    uint64_t landing() override {
        if (mode_ == StreamMode::pio64) {
            if (rx_index_ * 64 + 64 > fragments(max_bytes_) * 64 + kMaxBytes) protocol_error("a transfer longer than open() allowed");
            return recv_buf_ + 64 * rx_index_;
        }
        if (rx_offset_ + kMaxBytes > fragments(max_bytes_) * capacity() + kMaxBytes)
            protocol_error("a transfer longer than open() allowed");
        return recv_buf_ + rx_offset_;
    }

    void process(host::ProcessContext& ctx, const JamMessage& m) override {
        const JamWord& w = m.word;
        if (w.kind == JamKind::control) {
            if (w.low != uint32_t(JamControl::tag_descriptor)) protocol_error("an unexpected JAM control message");
            std::array<uint8_t, 8> t{};
            jam_.memory().read(m.payload_addr, t);
            pending_tag_ = 0;
            for (int b = 0; b < 8; ++b) pending_tag_ |= uint64_t(t[b]) << (8 * b);
            have_pending_tag_ = true;
            if (vi_receive()) jam_.vi_consume(ctx);
            return;
        }
        if (w.kind != JamKind::stream) protocol_error("a JAM RPC message on the stream transport's queue");
        if (w.first) {
            if (in_transfer_) protocol_error("a new transfer began before the last one ended");
            rx_offset_ = 0;
            rx_index_ = 0;
            rx_tag_ = have_pending_tag_ ? pending_tag_ : w.repeat ? last_rx_tag_ : w.low;
            have_pending_tag_ = false;
            in_transfer_ = true;
        } else if (!in_transfer_) {
            protocol_error("a message in the middle of a transfer that never began");
        }
        const uint32_t bytes = m.payload_words * 4 - w.pad;
        if (m.payload_words * 4 < w.pad) protocol_error("a pad longer than the message");
        if (vi_receive()) {
            // Out of the VI ring into the receive buffer: the DMA'd lines are not cached.
            if (rx_offset_ + bytes > max_bytes_) protocol_error("a transfer longer than open() allowed");
            std::vector<uint8_t>& tmp = scratch_;
            tmp.resize(bytes);
            jam_.memory().read(m.payload_addr, tmp);
            jam_.memory().write(recv_buf_ + rx_offset_, tmp);
            ctx.copy(bytes);
            jam_.vi_consume(ctx);
        }
        rx_offset_ += bytes;
        ++rx_index_;
        if (!w.last) return;
        in_transfer_ = false;
        const uint64_t total = rx_offset_;
        if (total > max_bytes_) protocol_error("a " + std::to_string(total) + "-byte transfer, beyond open()'s " + std::to_string(max_bytes_));
        const uint64_t key = recv_key(total);
        if (mode_ == StreamMode::pio64) {
            for (uint64_t k = 0; k < rx_index_; ++k)
                msg::check_pattern(jam_.memory(), recv_buf_ + 64 * k + 8, fragment_bytes(total, k), key, node(), peer_,
                                   message_what_, k * capacity());
        } else {
            msg::check_pattern(jam_.memory(), recv_buf_, total, key, node(), peer_, message_what_);
        }
        last_rx_tag_ = rx_tag_;
        rx_offset_ = 0;  // the next transfer lands at the start of the buffer
        rx_index_ = 0;
        deliver(total, rx_tag_);
    }

private:
    StreamMode mode_;
    uint64_t vi_bytes_;
    StreamReceivers* receivers_;
    uint64_t send_buf_ = 0, recv_buf_ = 0, ctl_buf_ = 0;
    uint64_t sent_tag_ = 0;
    bool have_sent_tag_ = false;
    // The transfer being received.
    bool in_transfer_ = false;
    uint64_t rx_offset_ = 0, rx_index_ = 0, rx_tag_ = 0, last_rx_tag_ = 0;
    uint64_t pending_tag_ = 0;
    bool have_pending_tag_ = false;
    std::vector<uint8_t> scratch_;
    // vi_tx: two transmit regions used in turn, the batch being composed, batches started.
    std::array<uint64_t, 2> vi_tx_region_{};
    uint64_t vi_tx_bytes_ = 0, vi_batch_ = 0, vi_sent_ = 0;
    bool vi_pending_ = false;
};

}  // namespace

std::unique_ptr<msg::Transport> make_stream_transport(const std::string& name, StreamMode mode,
                                                      const TransportContext& tc, uint32_t peer, uint64_t seed) {
    return std::make_unique<StreamTransport>(name, mode, tc, peer, seed);
}

}  // namespace niclab::startx
