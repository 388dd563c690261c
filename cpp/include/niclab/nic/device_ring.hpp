#pragma once
// A FIFO of fixed-size entries in a device's memory, with its head and tail indices
// (the producer advances the tail, the consumer the head; full when advancing the tail
// would meet the head). A building block for any system's DMA engines and queues.
#include <cstdint>
#include <algorithm>
#include <vector>

namespace niclab::nic {

class DeviceRing {
public:
    DeviceRing(uint32_t offset, uint32_t entry_bytes, uint32_t entries)
        : offset_(offset), entries_(entries), entry_words_(entry_bytes / 4), words_(size_t(entries) * entry_bytes / 4, 0) {}

    uint32_t head = 0;
    uint32_t tail = 0;

    bool empty() const { return head == tail; }
    bool full() const { return next(tail) == head; }
    uint32_t next(uint32_t i) const { return (i + 1) % entries_; }
    uint32_t entries() const { return entries_; }

    uint32_t* entry(uint32_t index) { return &words_[size_t(index) * entry_words_]; }
    // Register access to the ring's memory at a device offset; false if outside it.
    bool contains(uint32_t offset) const { return offset - offset_ < words_.size() * 4; }
    uint32_t load(uint32_t offset) const { return words_[(offset - offset_) / 4]; }
    void store(uint32_t offset, uint32_t v) { words_[(offset - offset_) / 4] = v; }
    void reset() {
        head = tail = 0;
        std::fill(words_.begin(), words_.end(), 0u);
    }

private:
    uint32_t offset_;
    uint32_t entries_;
    uint32_t entry_words_;
    std::vector<uint32_t> words_;
};

}  // namespace niclab::nic
