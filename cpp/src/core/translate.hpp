#pragma once
// Translated blocks: a block (block.cpp) as host code (x86-64, assembled with Xbyak),
// entered where its threaded code was (each translated slot's Insn::entry). The code does
// what the threaded forms do (execute.cpp, Cpu::block_next, Cpu::chain_to) and nothing
// else, with each slot's operands as constants instead of loads from the slot and no
// indirect jump from one slot to the next: an `addi` is three host instructions, not ten.
// Translated are register-only instructions but the multiply-highs, divisions and
// remainders; loads and stores on their fast path (an SRAM access that hits the D-cache,
// and a load with the D-cache off, which pays the SRAM's read); the step into another
// fetch line of the page on an I-cache hit or through no I-cache (a fixed fill: a LANai's
// every line); and a block's closing branch or jump with its chain into the next block.
// A run of loads and stores off one base register is checked once (translate.cpp: Group).
// A load or store in the uncached SRAM view goes to its threaded form's uncached path
// (op::uncached_form), which goes on through the block. Every other path - a D-cache or
// I-cache miss, a device, a store into code, a misaligned address, a store with the
// D-cache off (a posted write), the horizon - goes
// to the threaded form or leaves the block exactly as it does, with the same arguments
// (the Cpu, the slot, its pc), so the counters, the cache statistics and every access
// are where they were: translation changes the host code, never a result
// (BlockDispatch compares translated, threaded and per-instruction runs to the cycle).
//
// The code lives with a code pool (code_pool.hpp), as long as it does: only pages the pool
// shares are translated, once for every core that runs them. A core's private copy of a
// page keeps the code of the blocks it copied (whose slots it holds unchanged) until a
// store forgets them, and builds its own blocks threaded, as cores without a pool do.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace Xbyak {
class CodeGenerator;
class Label;
}  // namespace Xbyak

namespace niclab::core {

class Cpu;
struct Insn;

class Translator {
public:
    Translator();
    ~Translator();
    Translator(const Translator&) = delete;
    Translator& operator=(const Translator&) = delete;

    // The block just built at `first` (block.cpp: its n slots' entries are their threaded
    // forms), bit k of `line_ends` set when slot k is the last of its fetch line. Sets the
    // entry of each slot it translated; leaves everything as it was once its space is used up.
    // `pc` is the block's first address, for the perf map.
    void translate(const Cpu& cpu, Insn* first, uint32_t n, uint64_t line_ends, uint32_t pc);
    uint64_t slots_translated() const { return slots_; }
    // Half its arena or more used: a pool kept for another simulation (CodePool::take)
    // would soon run out of room and leave that one's new code threaded.
    bool half_full() const { return used_ >= kArenaBytes / 2; }

private:
    // Where the code reads the core's state: byte offsets into the Cpu, the same for
    // every core (found from the first one translated for).
    struct Layout {
        int32_t x, pc, cycle, limit, instret, stall, chain_left, branch_penalty, sram_read, uncached_fill;
        int32_t sram_data, sram_size, cached_base, fast_size, dcache_on, dline_shift;
        int32_t uncached_base;
        int32_t code_pages, resident, dirty, accesses;
        int32_t fetch_line, fetch_shift, fetch_base, fetch_page, fetch_page_offset, fetch_cached, icache_on;
        int32_t icache_resident, icache_accesses;
        bool ok = false;
    };
    void find_layout(const Cpu& cpu);

    // The code every block shares (emit_shared, at the arena's head), subroutines of the pc
    // in r8d: the step into the next fetch line, for a pc anywhere and for one known to be
    // in the fetch page (a block's next slot), which needs no test of the page's bounds; and
    // a closing branch's chain into the next block (`taken` pays a taken branch's bubble
    // first), one for each Reach of its next pc. One hot copy instead of one per block.
    enum class Reach : uint8_t {
        Anywhere,         // not known when translating (a jalr's), or in another page
        OtherLineInPage,  // in the fetch page, another line than the branch's: a step with no bounds test
        SameLine,         // the branch's own line, which is the fetch line: no step at all
    };
    struct Chain {
        const uint8_t* taken = nullptr;
        const uint8_t* not_taken = nullptr;
    };
    void emit_shared();
    size_t emit_chain(Xbyak::CodeGenerator& g, Xbyak::Label& taken, Xbyak::Label& chain, bool shared,
                      Reach to) const;
    void emit_line_hit(Xbyak::CodeGenerator& g, const Xbyak::Label& other, bool in_page) const;
    void emit_offset_in_page(Xbyak::CodeGenerator& g, const Xbyak::Label& miss) const;
    void emit_data_word(Xbyak::CodeGenerator& g, const Xbyak::Label& decoded) const;
    void emit_dcache_hit(Xbyak::CodeGenerator& g, bool store, const Xbyak::Label& miss) const;
    const uint8_t* next_line_ = nullptr;
    const uint8_t* next_line_in_page_ = nullptr;  // next_line_ for a block's next slot
    const uint8_t* dcache_load_hit_ = nullptr;     // a load's D-cache hit test
    const uint8_t* dcache_store_hit_ = nullptr;    // a store's, in a group
    const uint8_t* data_store_hit_ = nullptr;      // a store's, into no decoded word first
    std::array<Chain, 3> chains_{};               // by Reach

    // With NICLAB_PERF_MAP set, each block's code is named in /tmp/perf-<pid>.map, the
    // file perf reads for code it finds in no binary: `perf report` then shows the
    // simulator's time in translated firmware by the block's firmware address
    // (fw_<pc>_<instructions>) instead of one anonymous [JIT] region.
    void name_for_perf(const uint8_t* code, size_t bytes, uint32_t pc, uint32_t n);
    std::FILE* perf_map_ = nullptr;

    static constexpr size_t kArenaBytes = size_t(8) << 20;  // reserved; pages come as used
    uint8_t* arena_ = nullptr;
    size_t used_ = 0;
    uint64_t slots_ = 0;
    bool laid_out_ = false;
    Layout layout_{};
};

}  // namespace niclab::core
