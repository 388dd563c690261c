// The GRIM process's registered memory and page table (vm.hpp).
#include "niclab/systems/grim/vm.hpp"

#include <algorithm>
#include <cstdio>

namespace niclab::grim {

std::string hex_address(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%08x", v);
    return b;
}

namespace {
uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }
}  // namespace

void AddressSpace::unregistered(const char* what, uint32_t va) const {
    throw MemoryError(std::string(what) + ": virtual address " + hex_address(va) + " is not registered memory of node " + std::to_string(node_) +
                          " (grim_malloc_pinned or pinned pages)",
                      node_, va);
}

void AddressSpace::map(uint32_t va, uint32_t pa) { frames_[va / kPage] = pa / kPage; }

uint32_t AddressSpace::malloc_pinned(uint32_t bytes, Block* fresh) {
    if (bytes == 0) bytes = 8;
    const uint64_t need = round_up(bytes, 8);
    if (block_.bytes == 0 || block_used_ + need > block_.bytes) {
        // A new contiguous block: 4 MB, or what a larger request needs, whole pages.
        const uint64_t size = std::max<uint64_t>(kBlockBytes, round_up(need, kPage));
        if (uint64_t(next_block_pa_) + size > kFramesPa || uint64_t(next_block_va_) + size > kPagesVa)
            throw Error("grim_malloc_pinned: node " + std::to_string(node_) + " has no contiguous pinned memory left for " +
                        std::to_string(bytes) + " B");
        block_ = {next_block_va_, next_block_pa_, uint32_t(size)};
        block_used_ = 0;
        for (uint64_t o = 0; o < size; o += kPage) map(block_.va + uint32_t(o), block_.pa + uint32_t(o));
        // A page of guard between blocks in both spaces: a range that runs off a block
        // is unregistered, never the next block's.
        next_block_va_ += uint32_t(size) + kPage;
        next_block_pa_ += uint32_t(size) + kPage;
        if (fresh) *fresh = block_;
    }
    const uint32_t va = block_.va + block_used_;
    block_used_ += uint32_t(need);
    return va;
}

uint32_t AddressSpace::pin_pages(uint32_t bytes) {
    const uint32_t pages = uint32_t(round_up(std::max<uint32_t>(bytes, 1), kPage) / kPage);
    // Two frames a page, handed out in descending order inside the allocation: the
    // pages are neither adjacent nor ascending in physical memory.
    if (uint64_t(next_frame_) + uint64_t(pages) * 2 * kPage > kFramesEnd || uint64_t(next_pages_va_) + uint64_t(pages) * kPage > 0xFFFF'F000ull)
        throw Error("pinning " + std::to_string(bytes) + " B: node " + std::to_string(node_) + " has no pinnable pages left");
    const uint32_t va = next_pages_va_;
    for (uint32_t i = 0; i < pages; ++i) map(va + i * kPage, next_frame_ + (pages - 1 - i) * 2 * kPage);
    next_frame_ += pages * 2 * kPage;
    next_pages_va_ += (pages + 1) * kPage;  // and a guard page
    return va;
}

uint32_t AddressSpace::pa(uint32_t va) const {
    const auto it = frames_.find(va / kPage);
    if (it == frames_.end()) unregistered("grim_get_pinned_pa", va);
    return it->second * kPage + va % kPage;
}

uint32_t AddressSpace::pages(uint32_t va, uint32_t bytes) const {
    if (bytes == 0) return 0;
    return uint32_t((uint64_t(va) + bytes - 1) / kPage - va / kPage + 1);
}

bool AddressSpace::runs(uint32_t va, uint32_t bytes, std::vector<Run>& out) const {
    out.clear();
    if (uint64_t(va) + bytes > 0x1'0000'0000ull) return false;
    uint32_t at = va, left = bytes;
    while (left) {
        const auto it = frames_.find(at / kPage);
        if (it == frames_.end()) return false;
        const uint32_t pa = it->second * kPage + at % kPage;
        const uint32_t n = std::min(left, kPage - at % kPage);
        if (!out.empty() && out.back().pa + out.back().bytes == pa)
            out.back().bytes += n;
        else
            out.push_back({pa, n});
        at += n;
        left -= n;
    }
    return true;
}

bool AddressSpace::registered(uint32_t va, uint32_t bytes) const {
    std::vector<Run> r;
    return runs(va, std::max<uint32_t>(bytes, 1), r);
}

template <typename Span, typename Move>
void AddressSpace::each_run(uint32_t va, Span bytes, const char* what, Move move) const {
    std::vector<Run> r;
    if (!runs(va, uint32_t(bytes.size()), r)) unregistered(what, va);
    size_t done = 0;
    for (const Run& x : r) {
        move(x.pa, bytes.subspan(done, x.bytes));
        done += x.bytes;
    }
}

void AddressSpace::read(const host::HostMemory& m, uint32_t va, std::span<uint8_t> out) const {
    each_run(va, out, "read", [&](uint32_t pa, std::span<uint8_t> part) { m.read(pa, part); });
}

void AddressSpace::write(host::HostMemory& m, uint32_t va, std::span<const uint8_t> in) const {
    each_run(va, in, "write", [&](uint32_t pa, std::span<const uint8_t> part) { m.write(pa, part); });
}

}  // namespace niclab::grim
