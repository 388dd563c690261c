// JAM's PIO primitives (seed 002 §5.1, §6.1.1): the generalized ldd/std ones for
// variable-length messages between word-aligned buffers and the queues, and the 64-byte
// ldda/stda ones for 64-byte-aligned buffers (Table 1 rows a-b and c).
#include <algorithm>
#include <array>
#include <string>

#include "niclab/systems/startx/jam.hpp"
#include "niclab/systems/startx/le_word.hpp"

namespace niclab::startx {

void Jam::send(host::ProcessContext& ctx, uint32_t dst, Priority p, uint32_t word1, uint64_t buf,
               uint32_t payload_words, bool random_up) {
    const uint32_t w0 = header(dst, p, payload_words, random_up);
    if (buf % 4) throw DriverError("node " + std::to_string(node()) + ": PIO send from an unaligned buffer");
    wait_tx_space(ctx, p);
    charge(ctx, params_.call_cycles);
    std::array<uint8_t, kMaxBytes> m{};
    store_le32(&m[0], w0);
    store_le32(&m[4], word1);
    const uint32_t total = kHeaderWords + payload_words;
    memory().read(buf, std::span<uint8_t>(&m[8], payload_words * 4));
    // Words go to consecutive addresses of the page, 8 bytes per std, a last st for an
    // odd word; the CPU loads each pair from the (cached) buffer first.
    const uint64_t page = reg(Niu::tx_reg(p));
    for (uint32_t w = 0; w < total; w += 2) {
        const uint32_t n = std::min<uint32_t>(2, total - w);
        if (w >= kHeaderWords) charge(ctx, params_.word_cycles);
        bus_.store(ctx, page + 4 * w, std::span<const uint8_t>(&m[4 * w], 4 * n));
    }
    --tx_known_[uint32_t(p)];
    ++counters_.messages_sent;
}

JamMessage Jam::read_message(host::ProcessContext& ctx, Priority p, const Landing& landing) {
    charge(ctx, params_.call_cycles);
    const uint64_t page = reg(Niu::rx_reg(p));
    std::array<uint8_t, kMaxBytes> m{};
    bus_.load(ctx, page, std::span<uint8_t>(&m[0], 8));
    JamMessage out;
    out.header = Header::unpack(load_le32(&m[0]));
    out.word = JamWord::unpack(load_le32(&m[4]));
    out.payload_words = out.header.payload_words;
    const uint64_t buf = landing(out.word.sender);
    out.payload_addr = buf;
    const uint32_t total = out.header.total_words();
    for (uint32_t w = kHeaderWords; w < total; w += 2) {
        const uint32_t n = std::min<uint32_t>(2, total - w);
        bus_.load(ctx, page + 4 * w, std::span<uint8_t>(&m[4 * w], 4 * n));
        charge(ctx, params_.word_cycles);
    }
    memory().write(buf, std::span<const uint8_t>(&m[8], out.payload_words * 4));
    --rx_known_[uint32_t(p)];
    ++counters_.messages_received;
    return out;
}

bool Jam::try_receive(host::ProcessContext& ctx, Priority p, uint64_t buf, JamMessage& out) {
    if (!rx_ready(ctx, p)) return false;
    out = read_message(ctx, p, [buf](uint32_t) { return buf; });
    return true;
}

JamMessage Jam::receive(host::ProcessContext& ctx, Priority p, uint64_t buf) {
    return receive(ctx, p, [buf](uint32_t) { return buf; });
}

JamMessage Jam::receive(host::ProcessContext& ctx, Priority p, const Landing& landing) {
    wait_rx(ctx, p);
    return read_message(ctx, p, landing);
}

// --- 64-byte primitives ---

void Jam::format64(host::ProcessContext& ctx, uint64_t msg, uint32_t dst, Priority p, uint32_t word1, bool random_up) {
    if (msg % 64) throw DriverError("node " + std::to_string(node()) + ": a 64-byte message buffer must be 64-byte aligned");
    const uint32_t w0 = header(dst, p, 16 - kHeaderWords, random_up);
    std::array<uint8_t, 8> h{};
    store_le32(&h[0], w0);
    store_le32(&h[4], word1);
    memory().write(msg, h);
    charge(ctx, params_.call_cycles);
}

void Jam::send64(host::ProcessContext& ctx, Priority p, uint64_t msg) {
    if (msg % 64) throw DriverError("node " + std::to_string(node()) + ": stda needs a 64-byte aligned buffer");
    std::array<uint8_t, 64> m{};
    memory().read(msg, m);
    const Header h = Header::unpack(load_le32(&m[0]));
    if (h.total_words() != 16)
        throw MessageFormatError("node " + std::to_string(node()) + ": send64 of a " + std::to_string(h.total_words()) +
                                 "-word message (the 64-byte primitive moves exactly 16 words)");
    if (h.priority != p) throw MessageFormatError("node " + std::to_string(node()) + ": send64 header priority differs from the queue's");
    wait_tx_space(ctx, p);
    charge(ctx, params_.word_cycles * 8);  // ldda of the cached buffer into the FP registers
    bus_.store(ctx, reg(Niu::tx_reg(p)), m);
    --tx_known_[uint32_t(p)];
    ++counters_.messages_sent;
}

bool Jam::try_receive64(host::ProcessContext& ctx, Priority p, uint64_t msg, JamMessage& out) {
    if (!rx_ready(ctx, p)) return false;
    out = receive64(ctx, p, msg);
    return true;
}

JamMessage Jam::receive64(host::ProcessContext& ctx, Priority p, uint64_t msg) {
    if (msg % 64) throw DriverError("node " + std::to_string(node()) + ": ldda needs a 64-byte aligned buffer");
    return receive64(ctx, p, [msg](uint32_t) { return msg; });
}

JamMessage Jam::receive64(host::ProcessContext& ctx, Priority p, const Landing& landing) {
    wait_rx(ctx, p);
    charge(ctx, params_.call_cycles);
    std::array<uint8_t, 64> m{};
    bus_.load(ctx, reg(Niu::rx_reg(p)), m);
    JamMessage out;
    out.header = Header::unpack(load_le32(&m[0]));
    if (out.header.total_words() != 16)
        throw MessageFormatError("node " + std::to_string(node()) + ": ldda read a " + std::to_string(out.header.total_words()) +
                                 "-word message (the 64-byte primitive needs 16-word messages)");
    out.word = JamWord::unpack(load_le32(&m[4]));
    const uint64_t msg = landing(out.word.sender);
    if (msg % 64) throw DriverError("node " + std::to_string(node()) + ": ldda needs a 64-byte aligned buffer");
    out.payload_words = out.header.payload_words;
    out.payload_addr = msg + 8;
    memory().write(msg, m);
    charge(ctx, params_.word_cycles * 8);  // stda of the FP registers into the cached buffer
    --rx_known_[uint32_t(p)];
    ++counters_.messages_received;
    return out;
}

}  // namespace niclab::startx
