#include "niclab/host/host_memory.hpp"

#include <algorithm>
#include <cstring>

namespace niclab::host {

namespace {
// A DMA engine moves 64 bytes at a time: that size is copied as a constant, in a few
// vector moves; left to a run-time size, the compiler chose `rep movs`, whose start-up
// was most of a packet's read or landing.
// Any other size goes to the library's memcpy: inlined with the bound of a page, the
// compiler chose `rep movs` again (a third of read()'s time in a 1 B-8 MB sweep, whose
// odd sizes and page crossings are common).
[[gnu::noinline]] void copy_any(uint8_t* to, const uint8_t* from, size_t n) { std::memcpy(to, from, n); }
inline void copy_bytes(uint8_t* to, const uint8_t* from, size_t n) {
    if (n == 64) std::memcpy(to, from, 64);
    else copy_any(to, from, n);
}
}  // namespace

HostMemory::Page& HostMemory::page_for_write(uint64_t page_number) {
    if (Page* page = find_page(page_number)) return *page;
    auto& p = pages_[page_number];
    p = std::make_unique<Page>(Page{});
    recent_[page_number % kRecent] = {page_number, p.get()};
    return *p;
}

void HostMemory::remove_inbound(Inbound* in) { std::erase(inbound_, in); }

void HostMemory::read(uint64_t addr, std::span<uint8_t> out) const {
    settle();
    size_t done = 0;
    while (done < out.size()) {
        uint64_t a = addr + done;
        uint64_t in_page = a % kPageBytes;
        size_t n = std::min<uint64_t>(kPageBytes - in_page, out.size() - done);
        const Page* page = find_page(a / kPageBytes);
        if (!page) std::memset(out.data() + done, 0, n);
        else copy_bytes(out.data() + done, page->data() + in_page, n);
        done += n;
    }
}

void HostMemory::write(uint64_t addr, std::span<const uint8_t> in) {
    settle();
    land(addr, in);
}

void HostMemory::land(uint64_t addr, std::span<const uint8_t> in) {
    size_t done = 0;
    while (done < in.size()) {
        uint64_t a = addr + done;
        uint64_t in_page = a % kPageBytes;
        size_t n = std::min<uint64_t>(kPageBytes - in_page, in.size() - done);
        copy_bytes(page_for_write(a / kPageBytes).data() + in_page, in.data() + done, n);
        done += n;
    }
}

void HostMemory::fill(uint64_t addr, uint8_t value, uint64_t length) {
    settle();
    uint64_t done = 0;
    while (done < length) {
        uint64_t a = addr + done;
        uint64_t in_page = a % kPageBytes;
        uint64_t n = std::min<uint64_t>(kPageBytes - in_page, length - done);
        done += n;
        if (value == 0) {  // untouched memory reads as zero: zeroing never makes a page
            auto it = pages_.find(a / kPageBytes);
            if (it == pages_.end()) continue;
            if (n == kPageBytes) {
                Recent& r = recent_[it->first % kRecent];
                if (r.number == it->first) r = {};
                pages_.erase(it);  // a whole page zeroed is untouched again
                continue;
            }
        }
        std::memset(page_for_write(a / kPageBytes).data() + in_page, value, n);
    }
}

}  // namespace niclab::host
