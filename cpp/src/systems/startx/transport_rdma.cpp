// The rdma and rdma_excl transports (seed 002 §5.3, §6.1.2): one RDMA stream per transfer
// into a window the receiver opens for the sender. Both sides serve the peer's requests
// while they wait for their own grant, so an exchange (both sending at once) proceeds.
#include <algorithm>
#include <array>
#include <deque>

#include "niclab/systems/startx/le_word.hpp"
#include "transport_base.hpp"
#include "transport_factory.hpp"

namespace niclab::startx {

namespace {

uint64_t padded(uint64_t n) { return std::max<uint64_t>(4, (n + 3) & ~uint64_t(3)); }

class RdmaTransport final : public JamTransportBase {
public:
    RdmaTransport(std::string name, bool exclusive, const TransportContext& tc, uint32_t peer, uint64_t seed)
        : JamTransportBase(std::move(name), tc.jam, peer, seed), excl_(exclusive), board_(tc.board) {
        if (!excl_ && !board_) throw msg::TransportError("the rdma transport needs the system's RDMA side channel");
    }

    void open(host::ProcessContext&, uint64_t max_bytes) override {
        check_size(max_bytes, kMaxTransportMessage);
        max_bytes_ = std::max<uint64_t>(max_bytes, 1);
        send_buf_ = jam_.allocate(padded(max_bytes_), 64);
        recv_buf_ = jam_.allocate(padded(max_bytes_), 64);
        ctl_buf_ = jam_.allocate(kMaxBytes, 64);
        ctl_rx_buf_ = jam_.allocate(kMaxBytes, 64);
        opened_ = true;
    }

    void prepare_send(host::ProcessContext& ctx, uint64_t bytes) override {
        check_open(bytes);
        wait_sends(ctx);  // the TX DMA may still be reading the buffer
        send_bytes_ = bytes;
        msg::fill_pattern(jam_.memory(), send_buf_, bytes, send_key(bytes));
    }

    void send(host::ProcessContext& ctx, uint64_t tag) override {
        if (!opened_) check_open(0);
        wait_sends(ctx);  // one TX DMA: the last stream must have left
        if (excl_) acquire_by_messages(ctx, tag);
        else acquire_on_board(ctx, tag);
        JamWord w;
        w.sender = node();
        w.kind = JamKind::stream;
        w.first = w.last = true;
        jam_.rdma_headers(ctx, peer_, w.pack());
        jam_.rdma_transmit(ctx, send_buf_, padded(send_bytes_));
        tx_pending_ = true;
    }

    msg::Received recv(host::ProcessContext& ctx) override {
        if (!opened_) check_open(0);
        while (ready_.empty()) {
            if (in_.open) {
                jam_.rdma_wait_window(ctx);
                complete(ctx);
            } else if (excl_) {
                handle_control(ctx, jam_.receive(ctx, Priority::low, ctl_rx_buf_));
            } else {
                ctx.wait_for(board_->changed, [&] { return find_request() != board_->requests.end(); });
                serve_from_board(ctx);
            }
        }
        return pop_ready();
    }

    void wait_sends(host::ProcessContext& ctx) override {
        if (!tx_pending_) return;
        jam_.wait_tx_dma(ctx);
        tx_pending_ = false;
    }

    void poll(host::ProcessContext& ctx) override {
        if (!opened_) check_open(0);
        if (excl_) {
            if (jam_.rx_ready(ctx, Priority::low))
                while (jam_.known_rx(Priority::low) > 0) handle_control(ctx, jam_.receive(ctx, Priority::low, ctl_rx_buf_));
        } else if (!in_.open && find_request() != board_->requests.end()) {
            serve_from_board(ctx);
        }
        if (in_.open && jam_.read_status(ctx).rdma_window_done) complete(ctx);
    }

private:
    struct Incoming {
        bool open = false;
        uint64_t bytes = 0, tag = 0;
    };

    // --- exclusive access through the zero-cost side channel (protocol excluded) ---
    std::vector<RdmaBoard::Request>::iterator find_request() {
        return std::find_if(board_->requests.begin(), board_->requests.end(),
                            [&](const RdmaBoard::Request& r) { return r.to == node() && r.from == peer_; });
    }
    bool granted() const {
        return std::find(board_->grants.begin(), board_->grants.end(), std::make_pair(node(), peer_)) != board_->grants.end();
    }
    void acquire_on_board(host::ProcessContext& ctx, uint64_t tag) {
        board_->requests.push_back({node(), peer_, send_bytes_, tag});
        board_->changed.notify_all();
        for (;;) {
            ctx.wait_for(board_->changed, [&] { return granted() || (!in_.open && find_request() != board_->requests.end()); });
            if (granted()) break;
            serve_from_board(ctx);
        }
        board_->grants.erase(std::find(board_->grants.begin(), board_->grants.end(), std::make_pair(node(), peer_)));
    }
    void serve_from_board(host::ProcessContext& ctx) {
        auto it = find_request();
        const RdmaBoard::Request r = *it;
        board_->requests.erase(it);
        open_window(ctx, r.bytes, r.tag);
        board_->grants.push_back({peer_, node()});
        board_->changed.notify_all();
    }

    // --- exclusive access by JAM messages (low priority, 002 §5.3 L186) ---
    void send_control(host::ProcessContext& ctx, JamControl code, std::array<uint32_t, 4> words, uint32_t n_words) {
        std::array<uint8_t, 16> b{};
        for (uint32_t i = 0; i < 4; ++i)
            for (int k = 0; k < 4; ++k) b[4 * i + k] = uint8_t(words[i] >> (8 * k));
        jam_.memory().write(ctl_buf_, b);
        JamWord w;
        w.sender = node();
        w.kind = JamKind::control;
        w.low = uint32_t(code);
        jam_.send(ctx, peer_, Priority::low, w.pack(), ctl_buf_, n_words);
    }
    void acquire_by_messages(host::ProcessContext& ctx, uint64_t tag) {
        send_control(ctx, JamControl::rdma_request,
                     {uint32_t(send_bytes_), uint32_t(tag), uint32_t(tag >> 32), uint32_t(send_bytes_ >> 32)}, 4);
        grant_seen_ = false;
        while (!grant_seen_) handle_control(ctx, jam_.receive(ctx, Priority::low, ctl_rx_buf_));
    }
    void handle_control(host::ProcessContext& ctx, const JamMessage& m) {
        if (m.word.sender != peer_ || m.word.kind != JamKind::control)
            protocol_error("an unexpected low-priority message from node " + std::to_string(m.word.sender) +
                           (m.word.sender != peer_ ? " (the exclusive-access protocol serves one peer per node: with several, "
                                                     "as in a halo exchange, use rdma or a stream transport)"
                                                   : ""));
        std::array<uint8_t, 16> b{};
        jam_.memory().read(m.payload_addr, std::span<uint8_t>(b.data(), std::min<uint32_t>(16, m.payload_words * 4)));
        auto word = [&](int i) { return uint64_t(load_le32(&b[4 * i])); };
        switch (JamControl(m.word.low)) {
        case JamControl::rdma_request: {
            const uint64_t bytes = word(0) | word(3) << 32, tag = word(1) | word(2) << 32;
            if (in_.open) waiting_.push_back({true, bytes, tag});
            else grant_by_message(ctx, bytes, tag);
            break;
        }
        case JamControl::rdma_grant: grant_seen_ = true; break;
        default: protocol_error("an unknown JAM control code " + std::to_string(m.word.low));
        }
    }
    void grant_by_message(host::ProcessContext& ctx, uint64_t bytes, uint64_t tag) {
        open_window(ctx, bytes, tag);
        send_control(ctx, JamControl::rdma_grant, {0, 0, 0, 0}, 2);
    }

    // --- the receiving side ---
    void open_window(host::ProcessContext& ctx, uint64_t bytes, uint64_t tag) {
        if (bytes > max_bytes_) protocol_error("a request for " + std::to_string(bytes) + " B, beyond open()'s " + std::to_string(max_bytes_));
        jam_.rdma_open_window(ctx, recv_buf_, padded(bytes), peer_);
        in_ = {true, bytes, tag};
    }
    void complete(host::ProcessContext& ctx) {
        msg::check_pattern(jam_.memory(), recv_buf_, in_.bytes, recv_key(in_.bytes), node(), peer_, transfer_what_);
        in_.open = false;
        deliver(in_.bytes, in_.tag);
        if (excl_ && !waiting_.empty()) {
            const Incoming next = waiting_.front();
            waiting_.pop_front();
            grant_by_message(ctx, next.bytes, next.tag);
        }
    }

    bool excl_;
    RdmaBoard* board_;
    const std::string transfer_what_ = name_ + " transfer";  // a data check's name, made once
    uint64_t send_buf_ = 0, recv_buf_ = 0, ctl_buf_ = 0, ctl_rx_buf_ = 0;
    bool tx_pending_ = false;
    bool grant_seen_ = false;
    Incoming in_;
    std::deque<Incoming> waiting_;  // requests that came while a window was open
};

}  // namespace

std::unique_ptr<msg::Transport> make_rdma_transport(const std::string& name, bool exclusive, const TransportContext& tc,
                                                    uint32_t peer, uint64_t seed) {
    return std::make_unique<RdmaTransport>(name, exclusive, tc, peer, seed);
}

}  // namespace niclab::startx
