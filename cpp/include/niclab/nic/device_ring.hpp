#pragma once
// A FIFO of fixed-size entries in a DMA engine's device memory, with its head and
// tail indices (hw.h: the producer advances the tail, the consumer the head; full
// when advancing the tail would meet the head).
#include <cstdint>
#include <vector>

#include "niclab/fw/hw.h"

namespace niclab::nic {

class DeviceRing {
public:
    DeviceRing(uint32_t offset, uint32_t entry_bytes)
        : offset_(offset), entry_words_(entry_bytes / 4), words_(NICLAB_DMA_FIFO_ENTRIES * entry_bytes / 4, 0) {}

    uint32_t head = 0;
    uint32_t tail = 0;

    bool empty() const { return head == tail; }
    bool full() const { return next(tail) == head; }
    static uint32_t next(uint32_t i) { return (i + 1) % NICLAB_DMA_FIFO_ENTRIES; }

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
    uint32_t entry_words_;
    std::vector<uint32_t> words_;
};

}  // namespace niclab::nic
