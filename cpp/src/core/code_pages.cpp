// The core's decoded code pages (Cpu::code_pages_): found when the pc first enters a
// page, either the core's own, decoded lazily, or shared with the other cores of the
// simulation that run the same bytes (code_pool.hpp), and made the core's own the
// moment anything would change a shared one for this core alone.
#include <algorithm>

#include "niclab/core/cpu.hpp"

namespace niclab::core {

namespace {
const Insn kUndecoded{kDecodeHandler, 0, 0, 0, 0, 0};
}  // namespace

Insn* Cpu::find_code_page(uint32_t index) {
    // Once per page the firmware executes (per reset or fence.i).
    const uint32_t base = index << kCodePageShift;
    if (code_pool_ && sram_.size - base >= kCodePageBytes) {
        code_pages_[index] = code_pool_->page(sram_.data + base, code_key_, cfg_);
        // A breakpoint is a slot of this core's own: re-armed, it decodes to the debug trap.
        for (uint32_t w : breakpoints_)
            if ((w >> (kCodePageShift - 2)) == index) forget_slot(w * 4);
    } else {
        private_pages_[index] = std::make_unique<Insn[]>(kCodePageSlots);
        std::fill_n(private_pages_[index].get(), kCodePageSlots, kUndecoded);
        code_pages_[index] = private_pages_[index].get();
    }
    return code_pages_[index];
}

Insn* Cpu::private_page(uint32_t index) {
    if (own_page(index)) return code_pages_[index];
    Insn* page = code_pages_[index];
    // Shared: copy it, decodes and blocks, which hold for this core's bytes until the
    // change that brought it here. It stays the core's own until reset, so a page of
    // code and hot data is copied once, not at every store.
    private_pages_[index] = std::make_unique_for_overwrite<Insn[]>(kCodePageSlots);
    std::copy_n(page, kCodePageSlots, private_pages_[index].get());
    code_pages_[index] = private_pages_[index].get();
    copied_from_.emplace_back(index, page);
    // It may be running there (not merely in another page of the same bytes).
    if (fetch_page_ == page && fetch_page_offset_ == index << kCodePageShift) fetch_page_ = code_pages_[index];
    return code_pages_[index];
}

void Cpu::invalidate_all_code() {
    for (size_t i = 0; i < code_pages_.size(); ++i) {
        if (Insn* own = private_pages_[i].get())
            std::fill_n(own, kCodePageSlots, kUndecoded);
        else
            code_pages_[i] = nullptr;  // shared: the bytes may differ now, look them up again
    }
    lose_fetch_page();
}

void Cpu::drop_code_pages() {
    std::fill(code_pages_.begin(), code_pages_.end(), nullptr);
    for (auto& page : private_pages_) page.reset();
    copied_from_.clear();
    lose_fetch_page();
}

void Cpu::set_code_pool(CodePool* pool) {
    code_pool_ = pool;
    drop_code_pages();
}

uint32_t Cpu::shared_code_pages() const {
    uint32_t n = 0;
    for (size_t i = 0; i < code_pages_.size(); ++i) n += code_pages_[i] && !private_pages_[i];
    return n;
}

uint32_t Cpu::private_code_pages() const {
    return uint32_t(std::count_if(private_pages_.begin(), private_pages_.end(), [](const auto& p) { return p != nullptr; }));
}

}  // namespace niclab::core
