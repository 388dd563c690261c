#pragma once
// The virtual memory of the one GRIM process on a node (§9.2.1 L2220: one host-level
// application per host) as far as GRIM sees it: its page table for registered memory,
// and GRIM's two ways of getting registered memory (§4.5.1, App. C.5.1):
//   malloc_pinned(n)  grim_malloc_pinned(): sub-allocated from physically contiguous
//                     4 MB blocks of the pinned memory manager (L1165, L2670), so the
//                     NI moves a block with one DMA and the library can give each
//                     block one static translation entry;
//   pin_pages(n)      user memory pinned page by page by a system call: physically
//                     non-contiguous, so the NI needs one DMA per page (L1163).
// Virtual and physical addresses are 32-bit (x86 hosts, 32-bit PCI: L575). The
// simulated host has no MMU model of its own: this table is its page table for GRIM,
// read by the driver's translation ISR (translator.hpp) and by the library. Memory
// that is not registered is not mapped here: a virtual address outside it is an error.
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "niclab/host/host_memory.hpp"
#include "niclab/sim/error.hpp"

namespace niclab::grim {

// A registered-memory address that is not registered (or a range that leaves it).
// `node` is the node whose memory it names; `va` the address.
class MemoryError : public Error {
public:
    MemoryError(const std::string& what, uint32_t node, uint32_t va) : Error(what), node_(node), va_(va) {}
    uint32_t node() const { return node_; }
    uint32_t va() const { return va_; }

private:
    uint32_t node_, va_;
};

// "0x%08x": how GRIM's errors name an address.
std::string hex_address(uint32_t v);

class AddressSpace {
public:
    static constexpr uint32_t kPage = 4096;
    // assumption: where the library's registered memory sits; none is in the thesis.
    // Virtual: contiguous blocks from kPinnedVa, page-pinned memory from kPagesVa.
    // Physical: the pinned manager's 4 MB blocks from kBlocksPa (L1165: "multiple 4 MB
    // regions"), pinned pages from kFramesPa. Clear of the transports' fixed buffers.
    static constexpr uint32_t kPinnedVa = 0x8000'0000, kPagesVa = 0xC000'0000;
    static constexpr uint32_t kBlocksPa = 0x5000'0000, kFramesPa = 0x6000'0000, kFramesEnd = 0x7000'0000;
    static constexpr uint32_t kBlockBytes = 4u << 20;

    struct Run {
        uint32_t pa, bytes;
    };
    // A physically contiguous block the manager created (one static entry's worth).
    struct Block {
        uint32_t va = 0, pa = 0, bytes = 0;
    };

    explicit AddressSpace(uint32_t node) : node_(node) {}
    uint32_t node() const { return node_; }

    // grim_malloc_pinned: `bytes` of contiguous registered memory, 8-byte aligned (the
    // LANai 9's DMA alignment, §9.1 L2207). Sets *fresh to the new block when it had to
    // open one (the library then programs the NI's static entry), else leaves it alone.
    uint32_t malloc_pinned(uint32_t bytes, Block* fresh = nullptr);
    // User memory of `bytes` pinned page by page; no two neighbouring pages are
    // physically adjacent (what a pinned user allocation looks like, L1163).
    uint32_t pin_pages(uint32_t bytes);

    // grim_get_pinned_pa: the physical address of a registered virtual one; MemoryError
    // if it is not registered.
    uint32_t pa(uint32_t va) const;
    bool registered(uint32_t va, uint32_t bytes) const;
    // The physical runs of [va, va + bytes), neighbouring pages merged; false (and `out`
    // incomplete) if any page of it is not registered.
    bool runs(uint32_t va, uint32_t bytes, std::vector<Run>& out) const;
    uint32_t pages(uint32_t va, uint32_t bytes) const;  // pages the range touches

    // The process's own loads and stores of its registered memory (untimed: the caller
    // charges what it models). MemoryError on an unregistered byte.
    void read(const host::HostMemory& m, uint32_t va, std::span<uint8_t> out) const;
    void write(host::HostMemory& m, uint32_t va, std::span<const uint8_t> in) const;

private:
    void map(uint32_t va, uint32_t pa);
    // `move(pa, part)` for each physical run of [va, va + bytes.size()); MemoryError
    // naming `what` if a byte of it is not registered.
    template <typename Span, typename Move>
    void each_run(uint32_t va, Span bytes, const char* what, Move move) const;
    [[noreturn]] void unregistered(const char* what, uint32_t va) const;

    uint32_t node_;
    std::unordered_map<uint32_t, uint32_t> frames_;  // virtual page -> physical page
    Block block_;                                    // the block being sub-allocated
    uint32_t block_used_ = 0;
    uint32_t next_block_va_ = kPinnedVa, next_block_pa_ = kBlocksPa;
    uint32_t next_pages_va_ = kPagesVa, next_frame_ = kFramesPa;
};

}  // namespace niclab::grim
