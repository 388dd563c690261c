#pragma once
// Zero-filled memory whose pages cost nothing until written: an anonymous mapping, so
// a simulated memory (a NIC's SRAM, its receive buffers) holds resident only what the
// model has touched. That is what lets thousands of NICs share one machine: a SeaStar's
// firmware uses a quarter of its 384 KB SRAM.
#include <cstddef>
#include <cstdint>
#include <string>

namespace niclab::sim {

class ZeroPages {
public:
    // `what` the memory is, for the HostResourceError thrown when the machine cannot
    // map it ("a NIC's SRAM"): which resource ran out, and what to do.
    ZeroPages(size_t bytes, const std::string& what);
    ~ZeroPages();
    ZeroPages(ZeroPages&& other) noexcept;
    ZeroPages& operator=(ZeroPages&& other) noexcept;
    ZeroPages(const ZeroPages&) = delete;
    ZeroPages& operator=(const ZeroPages&) = delete;

    uint8_t* data() { return data_; }
    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }
    // All zero again, the pages handed back to the system (not rewritten).
    void clear();

private:
    uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

}  // namespace niclab::sim
