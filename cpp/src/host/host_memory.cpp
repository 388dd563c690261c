#include "niclab/host/host_memory.hpp"

#include <algorithm>
#include <cstring>

#include "niclab/sim/copy_bytes.hpp"

namespace niclab::host {

using sim::copy_bytes;

HostMemory::Page& HostMemory::page_for_write(uint64_t page_number) {
    if (Page* page = find_page(page_number)) return *page;
    auto& p = pages_[page_number];
    p = std::make_unique<Page>();  // zeroed where it lies (Page{} was zeroed on the stack, then copied)
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

size_t HostMemory::mismatch(uint64_t addr, std::span<const uint8_t> want) const {
    settle();
    size_t done = 0;
    while (done < want.size()) {
        uint64_t a = addr + done;
        uint64_t in_page = a % kPageBytes;
        size_t n = std::min<uint64_t>(kPageBytes - in_page, want.size() - done);
        const uint8_t* w = want.data() + done;
        if (const Page* page = find_page(a / kPageBytes)) {
            const uint8_t* have = page->data() + in_page;
            if (std::memcmp(have, w, n) != 0) return done + size_t(std::mismatch(have, have + n, w).first - have);
        } else if (const uint8_t* nonzero = std::find_if(w, w + n, [](uint8_t b) { return b != 0; }); nonzero != w + n) {
            return done + size_t(nonzero - w);  // untouched memory reads as zero
        }
        done += n;
    }
    return done;
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
