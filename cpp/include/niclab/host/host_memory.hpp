#pragma once
// A node's host memory: a sparse 64-bit physical address space of real bytes,
// allocated a page at a time on first touch. Untouched memory reads as zero.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>

namespace niclab::host {

class HostMemory {
public:
    static constexpr uint64_t kPageBytes = 4096;

    void read(uint64_t addr, std::span<uint8_t> out) const;
    void write(uint64_t addr, std::span<const uint8_t> in);
    void fill(uint64_t addr, uint8_t value, uint64_t length);
    uint64_t pages_touched() const { return pages_.size(); }

private:
    using Page = std::array<uint8_t, kPageBytes>;
    Page& page_for_write(uint64_t page_number);
    std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
};

}  // namespace niclab::host
