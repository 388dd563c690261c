#pragma once
// A packet FIFO of the DSNIC firmware counted in bytes (seed 003 L606: 1 Kbyte on the
// receiving and the transmitting side). A packet larger than the FIFO streams through
// it, so it is let in when the FIFO is empty; smaller ones when they fit.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "niclab/sim/ring_queue.hpp"
#include "niclab/sim/time.hpp"
#include "niclab/systems/dsnic/wire.hpp"

namespace niclab::dsnic {

struct FifoPacket {
    Protocol proto;
    uint32_t peer = 0;   // destination (outgoing) or source (incoming)
    std::vector<uint8_t> data;
    bool complete = true;  // outgoing: its DMA has finished
    uint32_t tag = 0;      // the benchmark's marker (see wire.hpp)
    // Incoming: its header was in at head_at, its end-of-packet comes at tail_at; the
    // data characters stream in between (the bytes are known ahead, used only when in).
    Time head_at{}, tail_at{};
};

// The byte buffers of the board's data packets: a packet takes one when it enters the
// board (the read DMA's, comin's) and gives it back when it leaves (once the C101 has
// injected it, once flush has copied it for the write DMA), so that in steady state
// packets reuse the same few buffers and the board allocates nothing.
class PacketBuffers {
public:
    explicit PacketBuffers(uint32_t packet_bytes) : packet_bytes_(packet_bytes) {}
    // A buffer of `bytes` bytes (zeros), room for a full packet.
    std::vector<uint8_t> take(uint32_t bytes) {
        std::vector<uint8_t> b;
        if (spare_.empty()) {
            b.reserve(packet_bytes_);
        } else {
            b = std::move(spare_.back());
            spare_.pop_back();
        }
        b.assign(bytes, 0);
        return b;
    }
    // Leaves `b` empty; a buffer never taken (a control packet's) is dropped.
    void give(std::vector<uint8_t>& b) {
        if (b.capacity() > 0) spare_.push_back(std::move(b));
        b = {};
    }

private:
    uint32_t packet_bytes_;
    std::vector<std::vector<uint8_t>> spare_;
};

class PacketFifo {
public:
    explicit PacketFifo(uint32_t capacity) : capacity_(capacity) {}
    bool fits(uint32_t bytes) const { return used_ + std::min(bytes, capacity_) <= capacity_; }
    void push(FifoPacket p) {
        used_ += uint32_t(std::min<std::size_t>(p.data.size(), capacity_));
        q_.push_back(std::move(p));
    }
    FifoPacket pop() {
        FifoPacket p = std::move(q_.front());
        q_.pop_front();
        used_ -= uint32_t(std::min<std::size_t>(p.data.size(), capacity_));
        return p;
    }
    bool empty() const { return q_.empty(); }
    FifoPacket& front() { return q_.front(); }
    FifoPacket& back() { return q_.back(); }
    uint32_t used() const { return used_; }

private:
    uint32_t capacity_;
    uint32_t used_ = 0;
    // Packets move when the ring grows; their bytes (a DMA's target) stay where they are.
    sim::RingQueue<FifoPacket> q_;
};

}  // namespace niclab::dsnic
