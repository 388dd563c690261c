#pragma once
// A node's host memory: a sparse 64-bit physical address space of real bytes,
// allocated a page at a time on first touch. Untouched memory reads as zero.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "niclab/sim/copy_bytes.hpp"

namespace niclab::host {

class HostMemory {
public:
    static constexpr uint64_t kPageBytes = 4096;

    // Writes on their way into this memory that land later, each at its time (a bus's
    // posted DMA writes, bus/hypertransport.hpp). Every access first has the ones due by
    // then land, so they need no event each to put them there.
    class Inbound {
    public:
        virtual void land_due() = 0;

    protected:
        ~Inbound() = default;
    };
    void add_inbound(Inbound* in) { inbound_.push_back(in); }
    void remove_inbound(Inbound* in);
    // An inbound source has writes on their way from now on / has none left.
    void inbound_begins() { ++inbound_pending_; }
    void inbound_ends() { --inbound_pending_; }
    // A write of an inbound source landing (no landing of others first: it is one).
    // Inline for what a DMA engine moves, a packet's bytes in a page touched before: the
    // page found among the remembered ones and the bytes copied (the calls and the walk
    // over pages were half of landing a packet).
    void land(uint64_t addr, std::span<const uint8_t> in) {
        if (uint8_t* at = in_one_page(addr, in.size())) [[likely]]
            sim::copy_bytes(at, in.data(), in.size());
        else
            land_across(addr, in);
    }

    void read(uint64_t addr, std::span<uint8_t> out) const {
        settle();
        if (const uint8_t* at = in_one_page(addr, out.size())) [[likely]]
            sim::copy_bytes(out.data(), at, out.size());
        else
            read_across(addr, out);
    }
    void write(uint64_t addr, std::span<const uint8_t> in);
    void fill(uint64_t addr, uint8_t value, uint64_t length);
    // The bytes of [addr, addr + size) where they lie, a page's piece at a time, in order:
    // f(bytes, offset in the range, length), with bytes null for a page never touched (it
    // reads as zero); f returns false to stop there. A check made in place, without copying
    // the bytes out (msg::check_pattern).
    template <class F>
    void read_pages(uint64_t addr, uint64_t size, F&& f) const {
        settle();
        by_page(addr, size, [&](uint64_t number, uint64_t in_page, uint64_t done, uint64_t n) {
            const Page* page = find_page(number);
            return f(page ? page->data() + in_page : nullptr, done, n);
        });
    }
    // The same to write them in place: f(bytes, offset in the range, length) sets every
    // byte of its piece (msg::fill_pattern: no copy made first and then written).
    template <class F>
    void write_pages(uint64_t addr, uint64_t size, F&& f) {
        settle();
        by_page(addr, size, [&](uint64_t number, uint64_t in_page, uint64_t done, uint64_t n) {
            f(page_for_write(number).data() + in_page, done, n);
            return true;
        });
    }
    uint64_t pages_touched() const {
        settle();
        return pages_touched_;
    }

private:
    // Each piece of [addr, addr + size) that lies in one page, in order: f(page number, offset
    // in the page, offset in the range, length), which returns false to stop there.
    template <class F>
    [[gnu::always_inline]] static void by_page(uint64_t addr, uint64_t size, F&& f) {
        for (uint64_t done = 0; done < size;) {
            const uint64_t a = addr + done, in_page = a % kPageBytes, n = std::min(kPageBytes - in_page, size - done);
            if (!f(a / kPageBytes, in_page, done, n)) return;
            done += n;
        }
    }
    // Where [addr, addr + n) lies if it is inside one touched page; else null.
    uint8_t* in_one_page(uint64_t addr, uint64_t n) const {
        const uint64_t in_page = addr % kPageBytes;
        if (in_page + n > kPageBytes) return nullptr;
        Page* page = find_page(addr / kPageBytes);
        return page ? page->data() + in_page : nullptr;
    }
    void land_across(uint64_t addr, std::span<const uint8_t> in);  // any pages, touched or not
    void read_across(uint64_t addr, std::span<uint8_t> out) const;  // settled already
    void settle() const {
        if (inbound_pending_) [[unlikely]]
            for (Inbound* in : inbound_) in->land_due();
    }
    std::vector<Inbound*> inbound_;
    uint32_t inbound_pending_ = 0;  // sources with writes on their way
    using Page = std::array<uint8_t, kPageBytes>;
    Page& page_for_write(uint64_t page_number);
    // The page, or null while untouched. The pages found last are remembered, a few by
    // their number's low bits: a DMA engine moves a message 64 bytes at a time through the
    // same page, so a lookup per packet became one per page (0.9 % of an 8 MB transfer's
    // host instructions); with one remembered page, a host or engine touching another page
    // between two packets (a receive landing while a send reads) cost a lookup each time
    // again. Pages never move, so an entry stays valid until its page is dropped (fill).
    Page* find_page(uint64_t page_number) const {
        Recent<Page>& r = recent_[page_number % kRecent];
        if (r.number != page_number) [[unlikely]] return find_in_runs(page_number);
        return r.item;
    }
    Page* find_in_runs(uint64_t page_number) const;
    // A page or a run found before, by its number.
    template <class T>
    struct Recent {
        uint64_t number = UINT64_MAX;
        T* item = nullptr;
    };
    static constexpr uint64_t kRecent = 8;
    mutable std::array<Recent<Page>, kRecent> recent_{};
    // Pages are kept in runs of kRunPages, each found by one hash lookup, and the runs found
    // last are remembered as the pages are: a stream through a buffer, which needs a new page
    // every 64 packets, looks a run up every 16 pages. A lookup per page missed the host's
    // caches (its table lies far from the bytes it finds): 3.5 % of a NetPIPE sweep's time.
    // Runs are never dropped, so a remembered one stays valid.
    static constexpr uint64_t kRunPages = 16;
    struct Run {
        std::array<std::unique_ptr<Page>, kRunPages> pages;
    };
    Run* find_run(uint64_t run_number) const;
    static constexpr uint64_t kRecentRuns = 4;
    mutable std::array<Recent<Run>, kRecentRuns> recent_runs_{};
    std::unordered_map<uint64_t, std::unique_ptr<Run>> runs_;
    uint64_t pages_touched_ = 0;
};

}  // namespace niclab::host
