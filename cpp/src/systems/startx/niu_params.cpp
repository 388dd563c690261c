// NiuParams validation and the status word's packing (layout in niu.hpp).
#include <cmath>
#include <string>

#include "niclab/systems/startx/niu.hpp"

namespace niclab::startx {

namespace {
[[noreturn]] void bad(const std::string& field, const std::string& why) {
    throw StartxError("NiuParams." + field + ": " + why);
}
}  // namespace

void NiuParams::validate() const {
    if (queue_messages == 0 || queue_messages > 31)
        bad("queue_messages", "must be 1..31 (the status word's 5-bit fields)");
    if (rx_count_saturation == 0 || rx_count_saturation > 31)
        bad("rx_count_saturation", "must be 1..31");
    if (!std::isfinite(queue_clock_hz) || queue_clock_hz < 1e6) bad("queue_clock_hz", "must be >= 1 MHz");
    if (!std::isfinite(link_clock_hz) || link_clock_hz < 1e6) bad("link_clock_hz", "must be >= 1 MHz");
    if (link_width_bytes == 0) bad("link_width_bytes", "must be positive");
    if (page_bytes < 64 || (page_bytes & (page_bytes - 1)) != 0)
        bad("page_bytes", "must be a power of two >= 64");
    if (rdma_chunk_words < kMinPayloadWords || rdma_chunk_words > kMaxPayloadWords)
        bad("rdma_chunk_words", "must be 2..22");
}

uint32_t Status::pack() const {
    auto f = [](uint8_t v) { return uint32_t(v > 31 ? 31 : v); };
    return f(tx_space[0]) | f(tx_space[1]) << 5 | f(rx_count[0]) << 10 | f(rx_count[1]) << 15 |
           uint32_t(tx_dma_busy) << 24 | uint32_t(vi_rx_armed) << 25 | uint32_t(vi_rx_exhausted) << 26 |
           uint32_t(rdma_window_open) << 27 | uint32_t(rdma_window_done) << 28 | uint32_t(rdma_tx_active) << 29;
}

Status Status::unpack(uint32_t w) {
    Status s;
    s.tx_space[0] = uint8_t(w & 31);
    s.tx_space[1] = uint8_t(w >> 5 & 31);
    s.rx_count[0] = uint8_t(w >> 10 & 31);
    s.rx_count[1] = uint8_t(w >> 15 & 31);
    s.tx_dma_busy = w >> 24 & 1;
    s.vi_rx_armed = w >> 25 & 1;
    s.vi_rx_exhausted = w >> 26 & 1;
    s.rdma_window_open = w >> 27 & 1;
    s.rdma_window_done = w >> 28 & 1;
    s.rdma_tx_active = w >> 29 & 1;
    return s;
}

}  // namespace niclab::startx
