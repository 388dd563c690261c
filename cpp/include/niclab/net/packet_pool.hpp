#pragma once
// Packets in flight live in one pool owned by the Network and are named by a 32-bit
// handle, so events capture four bytes instead of a packet and nothing is allocated
// per packet. The pool is sized at build time to the network's total buffer space
// (every live packet holds a credit for some buffer), so it never grows in a run.
// Headers and payloads are kept apart: each slot owns max_payload bytes of one flat
// array, so the payload capacity is the network's, not the largest of any network.
//
// A slot also carries the packet's place in the network: the intrusive `next` link
// of the buffer queue it waits in, and the routing decision of its current hop.
#include <cstdint>
#include <span>
#include <vector>

#include "niclab/net/packet.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::net {

using PacketHandle = uint32_t;
inline constexpr PacketHandle kNoPacket = UINT32_MAX;

struct PacketSlot {
    PacketHeader header;
    Time injected_at{};     // for end-to-end network latency
    Time eligible_at{};     // when it may compete for its output at the current router
    Time tail_arrival{};    // when its last byte reaches the current buffer (cut-through bound)
    PacketHandle next = kNoPacket;
    uint8_t out_port = 0;   // routing decision at the current router
    uint8_t out_vc = 0;     // virtual channel on the output link (vnet × dateline VCs + dateline VC)
    bool corrupted = false; // a bit was flipped on some hop with link retry off
    uint8_t stripped = 0;   // source-route bytes consumed: the payload starts that far in
};

class PacketPool {
public:
    explicit PacketPool(uint32_t payload_capacity) : payload_capacity_(payload_capacity) {}
    void reserve(std::size_t n) {
        slots_.reserve(n);
        bytes_.reserve(n * payload_capacity_);
    }
    uint32_t payload_capacity() const { return payload_capacity_; }
    std::size_t capacity() const { return slots_.capacity(); }
    std::size_t live() const { return live_; }

    PacketHandle allocate() {
        ++live_;
        if (free_ != kNoPacket) {
            PacketHandle h = free_;
            free_ = slots_[h].next;
            slots_[h].next = kNoPacket;
            return h;
        }
        slots_.emplace_back();
        bytes_.resize(slots_.size() * payload_capacity_);
        return PacketHandle(slots_.size() - 1);
    }
    void release(PacketHandle h) {
        --live_;
        slots_[h].next = free_;
        free_ = h;
    }

    // Calls f(handle) for every live packet (a walk of the whole pool: not for hot paths).
    template <typename F>
    void for_each_live(F f) {
        std::vector<bool> free(slots_.size(), false);
        for (PacketHandle h = free_; h != kNoPacket; h = slots_[h].next) free[h] = true;
        for (PacketHandle h = 0; h < slots_.size(); ++h)
            if (!free[h]) f(h);
    }

    PacketSlot& operator[](PacketHandle h) { return slots_[h]; }
    const PacketSlot& operator[](PacketHandle h) const { return slots_[h]; }
    // The payload bytes in use (header.length of them).
    std::span<uint8_t> payload(PacketHandle h) {
        return {bytes_.data() + std::size_t(h) * payload_capacity_ + slots_[h].stripped, slots_[h].header.length};
    }
    std::span<const uint8_t> payload(PacketHandle h) const {
        return {bytes_.data() + std::size_t(h) * payload_capacity_ + slots_[h].stripped, slots_[h].header.length};
    }

private:
    uint32_t payload_capacity_;
    std::vector<PacketSlot> slots_;
    std::vector<uint8_t> bytes_;  // slots × payload_capacity_
    PacketHandle free_ = kNoPacket;
    std::size_t live_ = 0;
};

// A FIFO of packets threaded through the pool's `next` links: a router input buffer,
// a NIC's injection queue or its receive buffer.
class PacketQueue {
public:
    bool empty() const { return head_ == kNoPacket; }
    uint32_t size() const { return size_; }
    PacketHandle front() const { return head_; }

    void push(PacketPool& pool, PacketHandle h) {
        pool[h].next = kNoPacket;
        if (tail_ == kNoPacket) head_ = h; else pool[tail_].next = h;
        tail_ = h;
        ++size_;
    }
    PacketHandle pop(PacketPool& pool) {
        PacketHandle h = head_;
        head_ = pool[h].next;
        if (head_ == kNoPacket) tail_ = kNoPacket;
        pool[h].next = kNoPacket;
        --size_;
        return h;
    }

private:
    PacketHandle head_ = kNoPacket;
    PacketHandle tail_ = kNoPacket;
    uint32_t size_ = 0;
};

}  // namespace niclab::net
