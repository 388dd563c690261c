#pragma once
// A packet FIFO of the DSNIC firmware counted in bytes (seed 003 L606: 1 Kbyte on the
// receiving and the transmitting side). A packet larger than the FIFO streams through
// it, so it is let in when the FIFO is empty; smaller ones when they fit.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

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

class PacketFifo {
public:
    explicit PacketFifo(uint32_t capacity) : capacity_(capacity) {}
    bool fits(uint32_t bytes) const { return used_ + std::min(bytes, capacity_) <= capacity_; }
    FifoPacket& push(FifoPacket p) {
        used_ += uint32_t(std::min<std::size_t>(p.data.size(), capacity_));
        q_.push_back(std::move(p));
        return q_.back();
    }
    FifoPacket pop() {
        FifoPacket p = std::move(q_.front());
        q_.pop_front();
        used_ -= uint32_t(std::min<std::size_t>(p.data.size(), capacity_));
        return p;
    }
    bool empty() const { return q_.empty(); }
    FifoPacket& front() { return q_.front(); }
    uint32_t used() const { return used_; }

private:
    uint32_t capacity_;
    uint32_t used_ = 0;
    std::deque<FifoPacket> q_;  // references stay valid across push_back (DMA targets)
};

}  // namespace niclab::dsnic
