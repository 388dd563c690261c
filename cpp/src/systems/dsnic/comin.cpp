// The receive side of the firmware (seed 003 §7.1 L598-600): comin splits each packet
// into its header (the protocol characters, to the headlenfifo, with the length counted
// at the end-of-packet) and its data (to the infifo); the headlenfifo feeds the S5933
// mailbox, which interrupts as soon as the header is in. flush pads the data to the full
// packet size so the driver can set up the receive DMA on the header alone, and the
// write DMA moves that block as its bytes come: data while the packet arrives, padding
// after its end.
#include <algorithm>

#include "niclab/systems/dsnic/board.hpp"

namespace niclab::dsnic {

bool Board::comin(const net::PacketView& packet, Time tail_at) {
    const Protocol proto = Protocol::decode(packet.message_id);
    const auto length = uint32_t(packet.payload.size());
    if (length > p_.packet_bytes)
        throw DsnicError("node " + std::to_string(p_.node) + ": a " + std::to_string(length) + "-byte packet is larger than the " +
                         std::to_string(p_.packet_bytes) + "-byte packet size");
    // Full FIFOs hold the packet in the link (DS flow control back to the sender).
    if (headlen_.size() >= p_.headlen_entries || (proto.is_data() && !infifo_.fits(length))) {
        ++counters_.link_refusals;
        return false;
    }
    headlen_.push_back(MailboxEntry{proto, length, packet.src, packet.message_bytes});
    if (proto.is_data()) {
        FifoPacket f;
        f.proto = proto;
        f.peer = packet.src;
        f.data = buffers_.take(length);
        std::copy(packet.payload.begin(), packet.payload.end(), f.data.begin());
        f.head_at = kernel_.now();
        f.tail_at = tail_at;
        infifo_.push(std::move(f));
        ++counters_.packets_received;
    } else {
        ++counters_.control_received;
    }
    event();  // the mailbox is full: the header is in
    return true;
}

MailboxEntry Board::mailbox_read() {
    if (headlen_.empty()) throw DsnicError("node " + std::to_string(p_.node) + ": mailbox read while the headlenfifo is empty");
    const MailboxEntry e = headlen_.front();
    headlen_.pop_front();
    return e;
}

void Board::start_rx_dma(uint64_t addr) {
    if (rx_busy_ || infifo_.empty())
        throw DsnicError("node " + std::to_string(p_.node) + ": receive DMA started " + (rx_busy_ ? "twice" : "with no data"));
    FifoPacket f = infifo_.pop();
    // flush: the block is always the full packet size; the bytes beyond the data are
    // padding, which lands in the receive buffer's slack (never in the message).
    const auto length = uint32_t(f.data.size());
    rx_block_.assign(p_.packet_bytes, 0);
    std::copy(f.data.begin(), f.data.end(), rx_block_.begin());
    buffers_.give(f.data);
    counters_.padding_bytes += p_.packet_bytes - length;
    counters_.rx_dma_bytes += p_.packet_bytes;
    rx_busy_ = true;
    rx_addr_ = addr;
    rx_moved_ = 0;
    rx_length_ = length;
    rx_head_at_ = f.head_at;
    rx_tail_at_ = f.tail_at;
    rx_burst();
}

// One burst of the receive DMA, once its bytes are in the infifo: the data characters
// arrive evenly between the header and the end-of-packet; flush's padding is there at
// the end-of-packet.
void Board::rx_burst() {
    const uint32_t n = std::min(s5933_.bus().params().dma_burst_bytes, p_.packet_bytes - rx_moved_);
    const uint32_t end = rx_moved_ + n;
    const Time ready = end <= rx_length_ ? rx_head_at_ + Time::ps((rx_tail_at_ - rx_head_at_).ps() * end / rx_length_) : rx_tail_at_;
    if (ready > kernel_.now()) {
        kernel_.schedule_at(ready, [this] { rx_burst(); });
        return;
    }
    s5933_.bus().dma_write(rx_addr_ + rx_moved_, std::span<const uint8_t>(rx_block_.data() + rx_moved_, n), [this, n] {
        rx_moved_ += n;
        if (rx_moved_ < p_.packet_bytes) return rx_burst();
        rx_busy_ = false;
        rx_done_ = true;
        c101_.receive_space_freed();  // the infifo drained: held packets may come in
        event();
    });
}

}  // namespace niclab::dsnic
