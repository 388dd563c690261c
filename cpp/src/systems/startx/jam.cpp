// JAM: construction, the status word and the driver calls (seed 002 §5.1 L166, §5.2, §5.3).
#include <string>

#include "niclab/systems/startx/jam.hpp"
#include "niclab/systems/startx/le_word.hpp"

namespace niclab::startx {

void JamParams::validate() const {
    if (cycle <= Time{}) throw DriverError("JAM: the host clock period must be positive");
    if (spin_limit <= Time{}) throw DriverError("JAM: the poll spin limit must be positive");
    if (driver_work < Time{}) throw DriverError("JAM: the driver call's work must not be negative");
    if (max_nodes == 0 || max_nodes > kMaxJamNodes)
        throw DriverError("JAM: at most " + std::to_string(kMaxJamNodes) + " nodes (its sender field has 8 bits)");
}

Jam::Jam(Niu& niu, bus::PciBus& bus, uint64_t niu_base, JamParams params)
    : niu_(niu), bus_(bus), base_(niu_base), params_(params) {
    params_.validate();
    if (niu_.params().node_id >= params_.max_nodes)
        throw DriverError("JAM: node " + std::to_string(niu_.params().node_id) + " does not fit JAM's sender field");
}

uint64_t Jam::allocate(uint64_t bytes, uint64_t align) {
    heap_ = (heap_ + align - 1) & ~(align - 1);
    const uint64_t at = heap_;
    heap_ += bytes;
    return at;
}

void Jam::charge(host::ProcessContext& ctx, uint64_t n) const {
    if (n) ctx.compute(cycles(n));
}

void Jam::check_node(uint32_t dst) const {
    if (dst >= params_.max_nodes || dst > 0xFFFF)
        throw MessageFormatError("node " + std::to_string(node()) + ": destination node " + std::to_string(dst) +
                                 " is beyond JAM's " + std::to_string(params_.max_nodes) + " nodes");
}

uint32_t Jam::header(uint32_t dst, Priority p, uint32_t payload_words, bool random_up) const {
    check_node(dst);
    Header h;
    h.down_route = uint16_t(dst);
    h.random_up = random_up;
    h.priority = p;
    h.payload_words = uint8_t(payload_words > 0xFF ? 0xFF : payload_words);
    if (payload_words < kMinPayloadWords || payload_words > kMaxPayloadWords)
        throw MessageFormatError("node " + std::to_string(node()) + ": a message of " + std::to_string(payload_words) +
                                 " payload words (a StarT-X message carries 2..22, seed 002 §5.1 L151)");
    return h.pack();
}

const Status& Jam::read_status(host::ProcessContext& ctx) {
    std::array<uint8_t, 4> w{};
    bus_.load(ctx, reg(Reg::status), w);
    status_ = Status::unpack(load_le32(w.data()));
    for (uint32_t p = 0; p < kPriorities; ++p) {
        rx_known_[p] = status_.rx_count[p];
        tx_known_[p] = status_.tx_space[p];
    }
    ++counters_.status_reads;
    return status_;
}

bool Jam::rx_ready(host::ProcessContext& ctx, Priority p) {
    if (rx_known_[uint32_t(p)] == 0) read_status(ctx);
    return rx_known_[uint32_t(p)] > 0;
}

bool Jam::tx_ready(host::ProcessContext& ctx, Priority p) {
    if (tx_known_[uint32_t(p)] == 0) read_status(ctx);
    return tx_known_[uint32_t(p)] > 0;
}

void Jam::wait_rx(host::ProcessContext& ctx, Priority p) {
    poll_until(ctx, [&] { return rx_known_[uint32_t(p)] > 0; }, [&] { return niu_.rx_messages(p) > 0; });
}

void Jam::wait_tx_space(host::ProcessContext& ctx, Priority p) {
    poll_until(ctx, [&] { return tx_known_[uint32_t(p)] > 0; }, [&] { return niu_.tx_space(p) > 0; });
}

// --- driver calls ---

void Jam::driver_call(host::ProcessContext& ctx) {
    ++counters_.driver_calls;
    ctx.syscall(params_.driver_work);
}

void Jam::store_control(host::ProcessContext& ctx, ControlWord w, uint32_t value) {
    bus_.store(ctx, base_ + niu_.control_offset(w), le32_bytes(value));
}

void Jam::vi_transmit(host::ProcessContext& ctx, uint64_t addr, uint64_t bytes) {
    driver_call(ctx);
    niu_.check_vi_transmit(addr, bytes);
    start_tx_dma(ctx, addr, ControlWord::tx_dma_bytes, bytes);
}

// The TX DMA's address, then its length in the word that says which mode starts.
void Jam::start_tx_dma(host::ProcessContext& ctx, uint64_t addr, ControlWord length_word, uint64_t bytes) {
    store_control(ctx, ControlWord::tx_dma_addr_lo, uint32_t(addr));
    store_control(ctx, ControlWord::tx_dma_addr_hi, uint32_t(addr >> 32));
    store_control(ctx, length_word, uint32_t(bytes));
}

uint32_t Jam::vi_compose(host::ProcessContext& ctx, uint64_t at, uint32_t dst, uint32_t word1, uint64_t buf,
                         uint32_t payload_words) {
    const uint32_t w0 = header(dst, Priority::high, payload_words);  // VI is high priority only (§5.2 L172)
    if (buf % 4 || at % 4) throw DriverError("node " + std::to_string(node()) + ": VI message to or from an unaligned buffer");
    std::array<uint8_t, kMaxBytes> m{};
    store_le32(&m[0], w0);
    store_le32(&m[4], word1);
    const uint32_t bytes = 4 * (kHeaderWords + payload_words);
    memory().read(buf, std::span<uint8_t>(m.data() + 4 * kHeaderWords, 4 * payload_words));
    memory().write(at, std::span<const uint8_t>(m.data(), bytes));
    charge(ctx, params_.call_cycles + params_.word_cycles * ((bytes + 7) / 8));
    return bytes;
}

void Jam::vi_arm_receive(host::ProcessContext& ctx, uint64_t base, uint64_t size) {
    if (size < kMaxBytes || size > UINT32_MAX || base % 8)
        throw DriverError("node " + std::to_string(node()) + ": a VI receive buffer of " + std::to_string(size) +
                          " bytes at " + std::to_string(base) + " (8-byte aligned, 96 B .. 4 GB)");
    memory().fill(base, 0, size);
    ctx.copy(size);  // the memset that makes every header word read as "nothing yet"
    driver_call(ctx);
    niu_.check_vi_arm_receive(base, size);
    vi_ = ViRx{base, size, 0, 0};
    store_control(ctx, ControlWord::rx_dma_base_lo, uint32_t(base));
    store_control(ctx, ControlWord::rx_dma_base_hi, uint32_t(base >> 32));
    store_control(ctx, ControlWord::rx_dma_size, uint32_t(size));
}

void Jam::rdma_transmit(host::ProcessContext& ctx, uint64_t addr, uint64_t bytes) {
    driver_call(ctx);
    niu_.check_rdma_transmit(addr, bytes);
    start_tx_dma(ctx, addr, ControlWord::rdma_tx_bytes, bytes);
}

void Jam::rdma_open_window(host::ProcessContext& ctx, uint64_t base, uint64_t size, uint32_t sender) {
    driver_call(ctx);
    niu_.check_rdma_open_window(base, size, sender);
    store_control(ctx, ControlWord::rdma_window_base_lo, uint32_t(base));
    store_control(ctx, ControlWord::rdma_window_base_hi, uint32_t(base >> 32));
    store_control(ctx, ControlWord::rdma_window_sender, sender);
    store_control(ctx, ControlWord::rdma_window_size, uint32_t(size));
}

// --- RDMA ---

void Jam::rdma_headers(host::ProcessContext& ctx, uint32_t dst, uint32_t word1) {
    charge(ctx, params_.call_cycles);
    const uint32_t h0 = header(dst, Priority::high, kMaxPayloadWords);
    bus_.store(ctx, reg(Reg::rdma_header0), le32_bytes(h0));
    bus_.store(ctx, reg(Reg::rdma_header1), le32_bytes(word1));
}

void Jam::rdma_wait_window(host::ProcessContext& ctx) {
    for (;;) {
        ctx.wait_for(niu_.activity(), [&] { return niu_.rdma_window_done(); });
        charge(ctx, params_.poll_cycles);
        if (read_status(ctx).rdma_window_done) return;
    }
}

void Jam::wait_tx_dma(host::ProcessContext& ctx) {
    for (;;) {
        ctx.wait_for(niu_.activity(), [&] { return !niu_.tx_dma_busy(); });
        charge(ctx, params_.poll_cycles);
        if (!read_status(ctx).tx_dma_busy) return;
    }
}

// --- VI receive ---

bool Jam::vi_peek(host::ProcessContext& ctx, JamMessage& out) {
    if (!vi_armed()) throw DriverError("node " + std::to_string(node()) + ": VI receive is not armed");
    if (vi_.peeked_words) throw DriverError("node " + std::to_string(node()) + ": vi_peek before vi_consume");
    charge(ctx, params_.poll_cycles);
    const uint64_t at = vi_.base + vi_.cursor;
    std::array<uint8_t, 8> hw{};
    if (vi_.cursor + 8 <= vi_.size) memory().read(at, hw);
    const uint32_t w0 = load_le32(&hw[0]);
    if (w0 == 0) {
        // Nothing at the cursor. The engine stops when the next message does not fit what
        // is left, so only near the end is it worth a status read to see whether it did.
        if (vi_.size - vi_.cursor < kMaxBytes && read_status(ctx).vi_rx_exhausted) {
            vi_.cursor = 0;
            driver_call(ctx);
            store_control(ctx, ControlWord::rx_dma_size, uint32_t(vi_.size));
        }
        return false;
    }
    const uint32_t w1 = load_le32(&hw[4]);
    out.header = Header::unpack(w0);
    out.word = JamWord::unpack(w1);
    out.payload_words = out.header.payload_words;
    out.payload_addr = at + 8;
    vi_.peeked_words = out.header.total_words();
    ++counters_.messages_received;
    return true;
}

JamMessage Jam::vi_wait(host::ProcessContext& ctx) {
    JamMessage m;
    while (!vi_peek(ctx, m)) {
        const uint64_t at = vi_.base + vi_.cursor;
        ctx.wait_for(niu_.activity(), [&] {
            std::array<uint8_t, 4> w{};
            if (vi_.cursor + 4 <= vi_.size) memory().read(at, w);
            return (w[0] | w[1] | w[2] | w[3]) != 0 || niu_.status().vi_rx_exhausted;
        });
    }
    return m;
}

void Jam::vi_consume(host::ProcessContext& ctx) {
    if (!vi_.peeked_words) throw DriverError("node " + std::to_string(node()) + ": vi_consume without a message");
    const uint64_t bytes = uint64_t(vi_.peeked_words) * 4;
    memory().fill(vi_.base + vi_.cursor, 0, bytes);
    charge(ctx, params_.word_cycles * ((bytes + 7) / 8));
    vi_.cursor += bytes;
    vi_.peeked_words = 0;
}

}  // namespace niclab::startx
