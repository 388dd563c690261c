// The transmit side of the firmware (seed 003 §7.1 L602-604): the read DMA fills the
// outfifo with a data packet's bytes; the driver writes acknowledgements and credits
// into the ackfifo; comout feeds the C101 and takes the ackfifo first, so
// acknowledgements bypass queued data.
#include "niclab/systems/dsnic/board.hpp"

namespace niclab::dsnic {

void Board::start_tx_dma(Protocol proto, uint32_t dst, uint64_t addr, uint32_t bytes, uint32_t tag) {
    if (tx_busy_ || !outfifo_.fits(bytes))
        throw DsnicError("node " + std::to_string(p_.node) + ": transmit DMA started " + (tx_busy_ ? "twice" : "into a full outfifo"));
    if (bytes > p_.packet_bytes)
        throw DsnicError("node " + std::to_string(p_.node) + ": a " + std::to_string(bytes) + "-byte packet is larger than the packet size");
    FifoPacket f;
    f.proto = proto;
    f.peer = dst;
    f.tag = tag;
    f.data = buffers_.take(bytes);
    f.complete = false;
    const std::span<uint8_t> data(f.data);  // stays where it is while the packet moves
    outfifo_.push(std::move(f));
    tx_busy_ = true;
    counters_.tx_dma_bytes += bytes;
    s5933_.bus().dma_read(addr, data, [this] {
        // The packet the DMA fills is the outfifo's last: no other enters while it runs.
        outfifo_.back().complete = true;
        tx_busy_ = false;
        tx_done_ = true;
        event();
        comout();
    });
}

void Board::push_control(Protocol proto, uint32_t dst) {
    if (!ackfifo_room()) throw DsnicError("node " + std::to_string(p_.node) + ": ackfifo overrun");
    FifoPacket f;
    f.proto = proto;
    f.peer = dst;
    ackfifo_.push_back(std::move(f));
    comout();
}

void Board::comout() {
    if (!c101_.idle()) return;
    FifoPacket next;
    if (!ackfifo_.empty()) {
        next = std::move(ackfifo_.front());
        ackfifo_.pop_front();
        ++counters_.control_sent;
    } else if (!outfifo_.empty() && outfifo_.front().complete) {
        // The packet leaves the outfifo for the C101 (which sends it at its own pace).
        next = outfifo_.pop();
        ++counters_.packets_sent;
    } else {
        return;
    }
    if (want_room_) {
        want_room_ = false;
        event();
    }
    c101_.send(std::move(next), [this] { comout(); });
}

}  // namespace niclab::dsnic
