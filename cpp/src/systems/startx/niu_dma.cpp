// The NIU's two DMA engines (the S5933's, 002 §4 L118) in their VI and RDMA personalities
// (002 §5.2, §5.3): the TX engine streams host memory into the high-priority transmit
// queue (VI: whole messages as written by the host; RDMA: data chunks behind the two
// header registers); the RX engine drains the high-priority receive queue into host
// memory (VI: whole messages packed back to back, header word last; RDMA: headers
// stripped, data in order into the open window).
#include <algorithm>
#include <string>

#include "niclab/systems/startx/le_word.hpp"
#include "niclab/systems/startx/niu.hpp"

namespace niclab::startx {

namespace {
std::string node_of(const NiuParams& p) { return "node " + std::to_string(p.node_id) + ": "; }
}  // namespace

// --- transmit ---

void Niu::check_vi_transmit(uint64_t host_addr, uint64_t bytes) const {
    const std::string node = node_of(params_);
    if (tx_dma_.mode == TxMode::rdma)
        throw RdmaError(node + "VI transmit while an RDMA transmit owns the high-priority queue");
    if (tx_dma_.mode != TxMode::idle) throw DriverError(node + "VI transmit while the TX DMA is busy");
    if (bytes == 0 || bytes % 4 || host_addr % 4)
        throw DriverError(node + "VI transmit of " + std::to_string(bytes) +
                          " bytes: address and length must be whole words, length > 0");
    if (tx_[0].expected)
        throw DriverError(node + "VI transmit while a PIO message is half written to the high-priority queue");
}

void Niu::vi_transmit(uint64_t host_addr, uint64_t bytes) {
    check_vi_transmit(host_addr, bytes);
    start_tx_dma(TxMode::vi, host_addr, bytes);
}

void Niu::start_tx_dma(TxMode mode, uint64_t host_addr, uint64_t bytes) {
    tx_dma_.mode = mode;
    tx_dma_.addr = host_addr;
    tx_dma_.end = host_addr + bytes;
    changed();
    tx_dma_step();
}

void Niu::set_rdma_headers(uint32_t header0, uint32_t header1) {
    tx_dma_.header0 = header0;
    tx_dma_.header1 = header1;
}

void Niu::check_rdma_transmit(uint64_t host_addr, uint64_t bytes) const {
    const std::string node = node_of(params_);
    if (tx_dma_.mode == TxMode::rdma) throw RdmaError(node + "a second RDMA transmit while one is active");
    if (tx_dma_.mode != TxMode::idle)
        throw RdmaError(node + "RDMA transmit while a VI transmit is streaming (RDMA cannot coexist)");
    const Header h = Header::unpack(tx_dma_.header0);
    if (h.random_up)
        throw RdmaError(node + "RDMA header has the random up-route bit set: RDMA needs an ordered path");
    if (h.priority != Priority::high) throw RdmaError(node + "RDMA header is not high priority");
    if (tx_[0].used() > 0)
        throw RdmaError(node + "RDMA transmit while the high-priority transmit queue holds other messages");
    if (bytes == 0 || bytes % 4 || host_addr % 4)
        throw DriverError(node + "RDMA transmit of " + std::to_string(bytes) +
                          " bytes: address and length must be whole words, length > 0");
}

void Niu::rdma_transmit(uint64_t host_addr, uint64_t bytes) {
    check_rdma_transmit(host_addr, bytes);
    start_tx_dma(TxMode::rdma, host_addr, bytes);
}

void Niu::tx_dma_step() {
    TxDma& d = tx_dma_;
    if (d.mode == TxMode::idle || d.reading) return;
    if (d.addr == d.end) {
        d.mode = TxMode::idle;
        changed();
        return;
    }
    const uint64_t left = d.end - d.addr;
    uint32_t need;  // queue slots this read may fill
    if (d.mode == TxMode::rdma) {
        d.chunk = uint32_t(std::min<uint64_t>(params_.rdma_chunk_words * 4, left));
        need = 1;
    } else {
        // assumption: the glue logic throttles the DMA on the FIFO's almost-full flag,
        // leaving room for every message a burst could start (16-byte minimum messages).
        d.chunk = uint32_t(std::min<uint64_t>(std::min<uint32_t>(bus_.params().dma_burst_bytes, kMaxBytes), left));
        need = std::min(params_.queue_messages, 1 + (d.chunk + 15) / 16);
    }
    if (tx_[0].used() + need > params_.queue_messages) return;  // back_end_done calls again
    d.reading = true;
    bus_.dma_read(d.addr, std::span<uint8_t>(d.buffer.data(), d.chunk), [this] { tx_dma_arrived(); });
}

void Niu::tx_dma_arrived() { guarded([this] { tx_dma_words(); }); }

void Niu::tx_dma_words() {
    TxDma& d = tx_dma_;
    d.reading = false;
    auto word = [&](uint32_t i) { return load_le32(&d.buffer[4 * i]); };
    const uint32_t words = d.chunk / 4;
    if (d.mode == TxMode::rdma) {
        Header h = Header::unpack(d.header0);
        h.payload_words = uint8_t(std::max(words, kMinPayloadWords));  // a 1-word tail is padded
        push_word(Priority::high, h.pack(), true);
        push_word(Priority::high, d.header1, true);
        for (uint32_t i = 0; i < words; ++i) push_word(Priority::high, word(i), true);
        for (uint32_t i = words; i < kMinPayloadWords; ++i) push_word(Priority::high, 0, true);
        counters_.rdma_bytes_sent += d.chunk;
    } else {
        const uint64_t before = counters_.messages_launched[0];
        for (uint32_t i = 0; i < words; ++i) push_word(Priority::high, word(i), true);
        counters_.vi_messages_sent += counters_.messages_launched[0] - before;
    }
    d.addr += d.chunk;
    if (d.addr == d.end && d.mode == TxMode::vi && tx_[0].expected) {
        const TxQueue& q = tx_[0];
        const uint32_t have = q.partial.n_words, want = q.expected;
        tx_[0].expected = 0;
        d.mode = TxMode::idle;
        throw MessageFormatError(node_of(params_) + "VI batch ends inside a message: its length field says " +
                                 std::to_string(want) + " words, the batch holds " + std::to_string(have));
    }
    tx_dma_step();
}

// --- receive ---

void Niu::check_vi_arm_receive(uint64_t base, uint64_t size) const {
    if (window_.open) throw RdmaError(node_of(params_) + "VI receive armed while an RDMA window is open");
    if (base % 4 || size % 4 || size < kMaxBytes)
        throw DriverError(node_of(params_) + "VI receive buffer of " + std::to_string(size) +
                          " bytes: base and size must be whole words, size at least one 96-byte message");
    if (vi_rx_.busy) throw DriverError(node_of(params_) + "VI receive re-armed while its DMA is writing");
}

void Niu::vi_arm_receive(uint64_t base, uint64_t size) {
    check_vi_arm_receive(base, size);
    vi_rx_.armed = true;
    vi_rx_.exhausted = false;
    vi_rx_.base = base;
    vi_rx_.size = size;
    vi_rx_.written = 0;
    changed();
    rx_drain();
}

void Niu::vi_disarm_receive() {
    vi_rx_.armed = false;
    changed();
}

void Niu::check_rdma_open_window(uint64_t /*base*/, uint64_t size, uint32_t /*sender*/) const {
    const std::string node = node_of(params_);
    if (window_.open)
        throw RdmaError(node + "RDMA window opened while one is open for node " + std::to_string(window_.sender));
    if (vi_rx_.armed) throw RdmaError(node + "RDMA window opened while VI receive is armed (no coexistence)");
    if (size == 0) throw DriverError(node + "RDMA window of 0 bytes");
}

void Niu::rdma_open_window(uint64_t base, uint64_t size, uint32_t sender) {
    check_rdma_open_window(base, size, sender);
    window_.open = true;
    window_.done = false;
    window_.base = base;
    window_.size = size;
    window_.received = 0;
    window_.sender = sender;
    changed();
    rx_drain();
}

void Niu::rdma_close_window() {
    window_.open = false;
    changed();
}

void Niu::rx_drain() {
    if (rx_[0].read_words > 0) return;  // the host is reading the head by PIO
    if (window_.open) rdma_rx_step();
    else if (vi_rx_.armed) vi_rx_step();
}

void Niu::vi_rx_step() {
    ViRx& v = vi_rx_;
    if (!v.armed || v.busy || !rx_head_visible(Priority::high)) return;
    const Message& m = rx_[0].messages.front().msg;
    if (v.written + m.bytes() > v.size) {
        if (!v.exhausted) {
            v.exhausted = true;
            changed();
        }
        return;
    }
    v.busy = true;
    v.inflight = m.bytes();
    m.to_bytes(v.staging);
    // Words 1..n-1 first, then the header word: a host polling the header sees whole messages.
    const uint64_t at = v.base + v.written;
    bus_.dma_write(at + 4, std::span<const uint8_t>(v.staging.data() + 4, v.inflight - 4), [this, at] {
        bus_.dma_write(at, std::span<const uint8_t>(vi_rx_.staging.data(), 4), [this] { vi_rx_done(); });
    });
}

void Niu::vi_rx_done() {
    vi_rx_.written += vi_rx_.inflight;
    vi_rx_.busy = false;
    ++counters_.vi_messages_received;
    pop_rx(Priority::high);
    vi_rx_step();
}

void Niu::rdma_rx_step() {
    Window& w = window_;
    if (!w.open || w.busy || !rx_head_visible(Priority::high)) return;
    const Message& m = rx_[0].messages.front().msg;
    const uint32_t payload = m.bytes() - 4 * kHeaderWords;
    w.inflight = uint32_t(std::min<uint64_t>(payload, w.size - w.received));  // padding is dropped
    w.busy = true;
    m.to_bytes(w.staging);
    bus_.dma_write(w.base + w.received, std::span<const uint8_t>(w.staging.data() + 4 * kHeaderWords, w.inflight),
                   [this] { rdma_rx_done(); });
}

void Niu::rdma_rx_done() {
    Window& w = window_;
    w.received += w.inflight;
    counters_.rdma_bytes_received += w.inflight;
    w.busy = false;
    if (w.received == w.size) {  // the whole block is in host memory: the window closes
        w.done = true;
        w.open = false;
    }
    pop_rx(Priority::high);
    rdma_rx_step();
}

}  // namespace niclab::startx
