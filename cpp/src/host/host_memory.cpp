#include "niclab/host/host_memory.hpp"

#include <algorithm>
#include <cstring>

#include "niclab/sim/copy_bytes.hpp"

namespace niclab::host {

using sim::copy_bytes;

HostMemory::Run* HostMemory::find_run(uint64_t run_number) const {
    Recent<Run>& r = recent_runs_[run_number % kRecentRuns];
    if (r.number != run_number) {
        auto it = runs_.find(run_number);
        if (it == runs_.end()) return nullptr;
        r = {run_number, it->second.get()};
    }
    return r.item;
}

HostMemory::Page* HostMemory::find_in_runs(uint64_t page_number) const {
    const Run* run = find_run(page_number / kRunPages);
    Page* page = run ? run->pages[page_number % kRunPages].get() : nullptr;
    if (page) recent_[page_number % kRecent] = {page_number, page};
    return page;
}

HostMemory::Page& HostMemory::page_for_write(uint64_t page_number) {
    if (Page* page = find_page(page_number)) return *page;
    Run* run = find_run(page_number / kRunPages);
    if (!run) run = (runs_[page_number / kRunPages] = std::make_unique<Run>()).get();
    auto& p = run->pages[page_number % kRunPages];
    p = std::make_unique<Page>();  // zeroed where it lies (Page{} was zeroed on the stack, then copied)
    ++pages_touched_;
    recent_[page_number % kRecent] = {page_number, p.get()};
    return *p;
}

void HostMemory::remove_inbound(Inbound* in) { std::erase(inbound_, in); }

void HostMemory::read_across(uint64_t addr, std::span<uint8_t> out) const {
    by_page(addr, out.size(), [&](uint64_t number, uint64_t in_page, uint64_t done, uint64_t n) {
        const Page* page = find_page(number);
        if (!page) std::memset(out.data() + done, 0, n);
        else copy_bytes(out.data() + done, page->data() + in_page, n);
        return true;
    });
}

void HostMemory::write(uint64_t addr, std::span<const uint8_t> in) {
    settle();
    land(addr, in);
}

void HostMemory::land_across(uint64_t addr, std::span<const uint8_t> in) {
    by_page(addr, in.size(), [&](uint64_t number, uint64_t in_page, uint64_t done, uint64_t n) {
        copy_bytes(page_for_write(number).data() + in_page, in.data() + done, n);
        return true;
    });
}

void HostMemory::fill(uint64_t addr, uint8_t value, uint64_t length) {
    settle();
    by_page(addr, length, [&](uint64_t number, uint64_t in_page, uint64_t, uint64_t n) {
        if (value == 0) {  // untouched memory reads as zero: zeroing never makes a page
            Run* run = find_run(number / kRunPages);
            if (!run || !run->pages[number % kRunPages]) return true;
            if (n == kPageBytes) {
                Recent<Page>& r = recent_[number % kRecent];
                if (r.number == number) r = {};
                run->pages[number % kRunPages].reset();  // a whole page zeroed is untouched again
                --pages_touched_;
                return true;
            }
        }
        std::memset(page_for_write(number).data() + in_page, value, n);
        return true;
    });
}

}  // namespace niclab::host
