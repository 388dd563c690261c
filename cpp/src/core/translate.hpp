#pragma once
// Translated blocks: a block's straight run of register-only instructions, loads and
// stores as host code (x86-64, made with Xbyak), entered where the threaded code would
// be (each such slot's Insn::entry). The code does what the threaded forms do
// (execute.cpp) and nothing else: the operands and the next slot are constants in it
// instead of loads from the slot, so an `addi` is three host instructions, not ten,
// and a slot goes on into the next one without an indirect jump. Every path a threaded
// form would not go on through - a D-cache miss, a device, a store into code, a
// misaligned address, the D-cache off - jumps to the threaded form or leaves the block
// exactly as it does, with the same registers (the Cpu, the slot, its pc), so the
// counters and every access are where they were: translation changes the host code,
// never a result (BlockTranslation tests compare both ways to the cycle).
//
// Only the pages a code pool shares are translated (code_pool.hpp): a page is decoded
// once for every core that runs the same bytes, and its code with it. A slot that ends a
// fetch line, or is the block's last, keeps its threaded form (it enters the next line,
// or chains to the next block); the code before it jumps to it.
#include <cstddef>
#include <cstdint>

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
    void translate(const Cpu& cpu, Insn* first, uint32_t n, uint64_t line_ends);
    size_t code_bytes() const { return used_; }
    uint64_t slots_translated() const { return slots_; }

private:
    // Where the code reads the core's state: byte offsets into the Cpu, the same for
    // every core (found from the first one translated for).
    struct Layout {
        int32_t x, pc, cycle, limit, instret, chain_left, branch_penalty;
        int32_t sram_data, sram_size, cached_base, fast_size, dcache_on, dline_shift;
        int32_t code_pages, resident, dirty, accesses;
        int32_t fetch_line, fetch_shift, fetch_base, fetch_page, fetch_page_offset, fetch_cached, icache_on;
        int32_t icache_resident, icache_accesses;
        bool ok = false;
    };
    void find_layout(const Cpu& cpu);

    static constexpr size_t kArenaBytes = size_t(8) << 20;  // reserved; pages come as used
    uint8_t* arena_ = nullptr;
    size_t used_ = 0;
    uint64_t slots_ = 0;
    bool laid_out_ = false;
    Layout layout_{};
};

}  // namespace niclab::core
