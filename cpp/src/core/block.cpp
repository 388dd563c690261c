// Block dispatch: the instruction loop (Cpu::execute) runs a straight run of decoded
// slots at a time instead of one instruction.
//
// A block starts at any slot and runs to the first branch, jump, CSR or system
// instruction, or to the end of its code page, whichever comes first. The
// instructions before its last one are register-only, loads or stores. A register-only
// one reads and writes registers and nothing else. A load or store inside a block goes
// on to the next slot only on its fast path: an SRAM access through the cached view that
// costs its base cost and no more, or a cost fixed by the configuration that the block
// checks against the horizon before going on (block_next) - a D-cache hit; with the
// D-cache off, a read's latency or a store's posted write (whose wait for a free slot
// reckons from the store's own cycle, not from the block's charged end) - and for a
// store, into a word no decode covers. Every other path - a miss, a device or
// host window, the uncached view, a store into code, a misaligned address - leaves the
// block at that instruction (leave_block): it takes back the cost and count of the
// slots after it and runs the instruction as the per-instruction loop does. So only an
// instruction that runs as the loop would run it can look at or move the counters, the
// pc, the horizon or the fetch state. When the per-instruction loop would have passed
// every one of its checks inside the block - the horizon (cycle_ < limit_ before each
// instruction: cycle_ + block_pre < limit_ before the first) and each line it enters
// (Cpu::fetch_next_line, which a block's last slot of a line calls before going on: an
// I-cache hit costs nothing, a fetch not through the I-cache its fixed line fill, and a
// line that misses the I-cache ends the block there, and the loop fetches it) - the
// block charges its base cost and instruction count once and runs its handlers back to
// back, and an instruction that leaves it, or its last, finds cycle_, instret_ and pc_
// exactly where that loop would have left them. That is what makes every device access,
// interrupt and trap happen at the same cycle as on the per-instruction path; near the
// horizon the loop takes that path.
//
// A block runs as threaded code: each slot's entry is its handler's threaded form
// (op::threaded), which jumps on to the next slot's entry, and the last slot's entry is
// its plain handler, which returns to the loop with the next pc - or, for a branch or
// jump, the handler and then the loop's own step (Cpu::chain_to): the block at the next
// pc runs from there when the loop would have run it whole, so a run of blocks takes no
// trip through the loop (a 0-byte Portals round trip's firmware, 3 % less host time).
//
// Blocks are kept in the decoded slots themselves (Insn::block_*, Insn::entry), each
// slot holding the block that starts there, and are forgotten with the slots they
// cover (forget_slot), so a store into code - or fence.i, a reload, a breakpoint -
// forgets them where it forgets the decode.
#include <algorithm>
#include <cstring>

#include "handlers.hpp"
#include "translate.hpp"

namespace niclab::core {

namespace {
// Longest block: keeps its cost in 16 bits (64 x 255 cycles) and forgetting cheap.
constexpr uint32_t kMaxBlock = 64;
}  // namespace

Insn* Cpu::build_block(Insn* first, uint32_t pc) {
    // pc_ == pc, the pc's line was just fetched, and `first` is its slot in fetch_page_.
    // Never with a debugger attached (its breakpoints live in slots; execute() then
    // takes the per-instruction path), so decoding here needs no breakpoint check.
    const uint32_t off = pc_sram_offset();
    const uint32_t line_mask = (1u << fetch_shift_) - 1;
    const uint32_t to_page_end = kCodePageSlots - uint32_t(first - fetch_page_);
    // Into the following lines: each is entered as the loop enters it (block_next<true>).
    const uint32_t limit = std::min({to_page_end, (sram_.size - off) >> 2, kMaxBlock});
    uint32_t n = 0;
    uint64_t line_ends = 0;  // bit k: slot k is the last of its fetch line
    while (n < limit) {
        Insn& slot = first[n++];
        if (slot.fn == kDecodeHandler) {
            // Decoding ahead of execution is what the slot would do when reached:
            // any write to the word before then forgets this decode and the block.
            // Only in the core's own pages: a shared page's slots are decoded from its
            // own bytes or forgotten (forget_slot), never decoded from one core's SRAM
            // (code_pool.hpp), so the block goes on in the core's own copy of it.
            const uint32_t index = fetch_page_offset_ >> kCodePageShift;
            if (!own_page(index)) {
                const Insn* shared = fetch_page_;
                first = private_page(index) + (first - shared);
                --n;
                continue;
            }
            uint32_t raw;
            std::memcpy(&raw, sram_.data + off + 4 * (n - 1), 4);
            slot = decode(raw, cfg_);
        }
        const bool line_end = ((pc + 4 * n) & line_mask) == 0;  // the next slot starts a line
        line_ends |= uint64_t(line_end) << (n - 1);
        if (n == limit || !(slot.entry = op::threaded(slot.fn, line_end))) break;
    }
    first[n - 1].entry = op::block_end(first[n - 1].fn);
    // A polling loop's closing branch looks for passes to skip (spin.cpp).
    if (spin_loop(&first[n - 1], uint32_t(&first[n - 1] - fetch_page_))) first[n - 1].entry = op::spin_branch;
    // Every slot of the run starts a block that ends where this one does.
    const uint32_t last_cost = first[n - 1].cost;
    uint32_t cost = 0;
    for (uint32_t k = n; k-- > 0;) {
        cost += first[k].cost;
        first[k].block_n = uint8_t(n - k);
        first[k].block_cost = uint16_t(cost);
        first[k].block_pre = uint16_t(cost - last_cost);
    }
    // Host code for the block (translate.hpp), made once for every core that runs it: in a
    // page the pool shares, or in the one a core's own copy was made from (share_block).
    if (!translate_ || !code_pool_) return first;
    const uint32_t index = fetch_page_offset_ >> kCodePageShift;
    if (own_page(index)) share_block(index, first, n, line_ends, pc);
    else code_pool_->translator().translate(*this, first, n, line_ends, pc);
    return first;
}

// A store into code a block covers in a shared page (self-modifying code, a DMA into
// code, a reload's leftovers), a breakpoint, or a core reaching a word forgotten there
// gives the core its own copy, and the blocks built in the copy afterwards - often the hot
// loop, first run after the data was set up - were threaded only: translating each core's copies anew
// cost more host time on a 64-node halo than their code saved. While a block's words are
// still the shared page's bytes, it is the shared page's block (the same decodes, the
// same fetch lines, the same key): built and translated there once, for every core, and
// copied into this core's page, where a later store forgets it as any other.
void Cpu::share_block(uint32_t index, Insn* first, uint32_t n, uint64_t line_ends, uint32_t pc) {
    if (!breakpoints_.empty()) return;  // its slots are the core's own
    Insn* shared = nullptr;
    for (const auto& [i, page] : copied_from_)
        if (i == index) shared = page;
    if (!shared) return;  // decoded lazily, never shared (the end of SRAM)
    const uint32_t word = uint32_t(first - fetch_page_);
    if (std::memcmp(sram_.data + fetch_page_offset_ + 4 * word, CodePool::bytes_of(shared) + 4 * word, 4 * n) != 0) return;
    Insn* there = shared + word;
    // A slot forgotten there (a store into a word no block covered) stays forgotten.
    if (std::any_of(there, there + n, [](const Insn& s) { return s.fn == kDecodeHandler; })) return;
    if (there->block_n != n) {  // not built there yet
        std::copy_n(first, n, there);
        code_pool_->translator().translate(*this, there, n, line_ends, pc);
    }
    std::copy_n(there, n, first);
}

bool Cpu::posted_data_store(uint32_t addr, uint32_t size, uint32_t& off, const Insn& in) {
    if (dcache_on_ || !data_word_store(addr, size, off)) return false;
    posted_write(cfg_.sram_write_cycles, in.block_cost - in.cost);
    return true;
}

uint32_t Cpu::leave_block(const Insn& in, uint32_t pc) {
    stop_block_at(in, pc);
    return in.fn(*this, in, pc);
}

void Cpu::forget_slot(uint32_t sram_offset) {
    const uint32_t index = sram_offset >> kCodePageShift, word = (sram_offset & kCodePageMask) >> 2;
    // A word of a shared page that no block covers - a data word: the firmware's globals
    // and pools that begin in the page where its text ends - is forgotten in the shared
    // page itself, for every core: no core decodes it there (a core that reaches it goes on
    // in its own copy, build_block and decode_and_execute), so what any core's bytes hold
    // in it is never run from there, and every core's later stores to it are data stores.
    // A copy of the page per core for its globals was 32 KB of each SeaStar's memory, and
    // the code in the page ran from 10,368 copies of its slots instead of one.
    if (!own_page(index) && code_pages_[index][word].block_n == 0 && breakpoints_.empty()) {
        code_pages_[index][word].fn = kDecodeHandler;
        return;
    }
    Insn* page = private_page(index);
    page[word].fn = kDecodeHandler;
    // Each slot of a block holds the rest of it (block_n counts down to the block's end;
    // a block is built only where none covers its first slot, and a forget leaves a
    // block's tail whole), so a word that no block covers has none of its own: a data
    // word, the firmware's globals in a page of its text, ends here. (The scan below reads
    // 64 slots, 2 KB: at each core's first store into each such word, 11 % of the
    // last-level misses callgrind's cache model counted in a 2-iteration 2,048-node halo.)
    if (page[word].block_n == 0) return;
    // The blocks that cover the word start at most kMaxBlock - 1 slots before it, in its page.
    for (uint32_t k = word - std::min(word, kMaxBlock - 1); k <= word; ++k)
        if (k + page[k].block_n > word) page[k].block_n = 0;
}

}  // namespace niclab::core
