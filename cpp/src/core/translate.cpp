#include "translate.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <string>
#include <vector>
#include <xbyak/xbyak.h>

#include "handlers.hpp"

namespace niclab::core {

namespace {

// What a slot's handler does, as far as translation goes.
enum class Kind { Other, Alu, Load, Store };
struct Form {
    Kind kind = Kind::Other;
    uint8_t size = 0;   // bytes a load or store moves
    bool sign = false;  // a load that sign-extends
};

Form form_of(Handler fn) {
    using namespace op;
    if (fn == lb) return {Kind::Load, 1, true};
    if (fn == lbu) return {Kind::Load, 1, false};
    if (fn == lh) return {Kind::Load, 2, true};
    if (fn == lhu) return {Kind::Load, 2, false};
    if (fn == lw) return {Kind::Load, 4, false};
    if (fn == sb) return {Kind::Store, 1};
    if (fn == sh) return {Kind::Store, 2};
    if (fn == sw) return {Kind::Store, 4};
    for (Handler alu : {lui, auipc, addi, slti, sltiu, xori, ori, andi, slli, srli, srai, add, sub, sll, slt, sltu, xor_,
                        srl, sra, or_, and_, mul})
        if (fn == alu) return {Kind::Alu};
    return {};  // mulh*, div*, rem*: left threaded (rare, and their corner cases are the handler's)
}

// A block's last slot translated: a branch or a jump that chains as Cpu::chain_to does
// (its threaded form, op::block_end's, or a polling loop's spin_branch, which is left).
bool translated_end(const Insn& in) {
    using namespace op;
    if (in.entry != block_end(in.fn)) return false;
    if (in.fn == jalr) return true;
    if (in.imm & 3) return false;  // a misaligned target traps: the handler's
    return in.fn == jal || in.fn == beq || in.fn == bne || in.fn == blt || in.fn == bge || in.fn == bltu ||
           in.fn == bgeu;
}

// A run of a block's slots whose loads and stores all take their address from one base
// register that none of them changes before the last: a function's saves and restores
// off sp, a structure's fields. Checked once - the base aligned, all it reaches in the
// fast view, no code where it stores - each of its loads and stores goes straight to its
// D-cache hit test (a third of a 0-byte Portals round trip's translated code was its main
// loop's polls saving and restoring registers).
struct Group {
    uint32_t first = 0, last = 0;  // its first and last load or store
    uint32_t base = 0;
    int32_t lo = INT32_MAX, end = INT32_MIN;              // the offsets from the base it reaches
    int32_t store_lo = INT32_MAX, store_end = INT32_MIN;  // its stores' (none: lo > end)
    uint8_t widest = 1;                                   // its widest access's bytes
};

std::vector<Group> find_groups(const Insn* first, const std::vector<Form>& forms, uint32_t n) {
    std::vector<Group> groups;
    for (uint32_t k = 0; k + 1 < n; ++k) {
        if ((forms[k].kind != Kind::Load && forms[k].kind != Kind::Store) || first[k].rs1 == 0) continue;
        Group run;
        run.first = run.last = k;
        run.base = first[k].rs1;
        uint32_t accesses = 0;
        for (uint32_t j = k; j + 1 < n; ++j) {
            const Insn& in = first[j];
            const Form f = forms[j];
            if (f.kind == Kind::Other) break;
            if (f.kind == Kind::Alu) {
                if (in.rd == run.base) break;
                continue;
            }
            // Every offset a multiple of its size, so the base's alignment is each access's.
            if (in.rs1 != run.base || in.imm % f.size != 0) break;
            run.lo = std::min(run.lo, in.imm);
            run.end = std::max(run.end, in.imm + f.size);
            if (f.kind == Kind::Store) {
                run.store_lo = std::min(run.store_lo, in.imm);
                run.store_end = std::max(run.store_end, in.imm + f.size);
            }
            run.widest = std::max(run.widest, f.size);
            run.last = j;
            ++accesses;
            if (f.kind == Kind::Load && in.rd == run.base) break;  // the base changes after it
        }
        if (accesses < 2) continue;
        groups.push_back(run);
        k = run.last;
    }
    return groups;
}

// The slot after a fetch line whose fill took the clock to the horizon, run alone:
// Cpu::leave_block, with the Handler's arguments (the Cpu, the slot, its pc) where the
// translated code keeps them. (A load or store that takes its full path: op::full_form.)
uint32_t leave(Cpu& c, const Insn& in, uint32_t pc) { return c.leave_block(in, pc); }
// The last slot of a fetch line, done, where the next line is not simply an I-cache hit:
// into it as the threaded form goes (Cpu::block_next, a slot that charged nothing past its
// base cost), then on to the next slot's entry or back to the loop.
uint32_t cross(Cpu& c, const Insn& in, uint32_t next_pc) { return c.block_next<true, false>(in, next_pc); }
// A closing branch's target, its line fetched, where its block is not to run whole now:
// Cpu::chain_stopped, with the target's slot and pc where the translated code keeps them.
uint32_t chain_stopped(Cpu& c, const Insn& in, uint32_t pc) { return c.chain_stopped(const_cast<Insn&>(in), pc); }

template <typename T>
bool begins_with_data(const std::vector<T>& v) {
    // The code reads a vector's elements through its first word (libstdc++ and libc++
    // keep the pointer to them there); checked, not assumed.
    const void* first;
    std::memcpy(&first, &v, sizeof first);
    return first == static_cast<const void*>(v.data());
}

}  // namespace

Translator::Translator() {
    void* p = mmap(nullptr, kArenaBytes, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p != MAP_FAILED) arena_ = static_cast<uint8_t*>(p);  // none: nothing is translated
    if (std::getenv("NICLAB_PERF_MAP")) perf_map_ = std::fopen(("/tmp/perf-" + std::to_string(getpid()) + ".map").c_str(), "a");
}

Translator::~Translator() {
    if (arena_) munmap(arena_, kArenaBytes);
    if (perf_map_) std::fclose(perf_map_);
}

void Translator::name_for_perf(const uint8_t* code, size_t bytes, uint32_t pc, uint32_t n) {
    std::fprintf(perf_map_, "%zx %zx fw_%08x_%u\n", reinterpret_cast<size_t>(code), bytes, pc, n);
    std::fflush(perf_map_);
}

void Translator::find_layout(const Cpu& c) {
    laid_out_ = true;
    const auto at = [&c](const void* field) {
        return int32_t(reinterpret_cast<const char*>(field) - reinterpret_cast<const char*>(&c));
    };
    Layout& L = layout_;
    L.x = at(&c.x_[0]);
    L.pc = at(&c.pc_);
    L.cycle = at(&c.cycle_);
    L.limit = at(&c.limit_);
    L.instret = at(&c.instret_);
    L.stall = at(&c.stall_cycles_);
    L.sram_read = at(&c.cfg_.sram_read_cycles);
    L.uncached_fill = at(&c.uncached_fill_);
    L.chain_left = at(&c.chain_left_);
    L.branch_penalty = at(&c.cfg_.taken_branch_penalty);
    L.sram_data = at(&c.sram_.data);
    L.sram_size = at(&c.sram_.size);
    L.cached_base = at(&c.sram_.cached_base);
    L.fast_size = at(&c.fast_sram_size_);
    L.dcache_on = at(&c.dcache_on_);
    L.dline_shift = at(&c.dline_shift_);
    L.uncached_base = at(&c.sram_.uncached_base);
    L.code_pages = at(&c.code_pages_);
    L.resident = at(&c.dcache_.resident_bits());
    L.dirty = at(&c.dcache_.dirty_bits());
    L.accesses = at(&c.dcache_.accesses);
    L.fetch_line = at(&c.fetch_line_);
    L.fetch_shift = at(&c.fetch_shift_);
    L.fetch_base = at(&c.fetch_base_);
    L.fetch_page = at(&c.fetch_page_);
    L.fetch_page_offset = at(&c.fetch_page_offset_);
    L.fetch_cached = at(&c.fetch_cached_);
    L.icache_on = at(&c.icache_on_);
    L.icache_resident = at(&c.icache_.resident_bits());
    L.icache_accesses = at(&c.icache_.accesses);
    L.ok = sizeof(bool) == 1 && begins_with_data(c.code_pages_) && begins_with_data(c.dcache_.resident_bits()) &&
           begins_with_data(c.dcache_.dirty_bits()) && begins_with_data(c.icache_.resident_bits());
}

// The SRAM offset of the pc in r8d into eax, or to `miss` when it is not in the fetch page.
void Translator::emit_offset_in_page(Xbyak::CodeGenerator& g, const Xbyak::Label& miss) const {
    using namespace Xbyak::util;
    const Layout& L = layout_;
    const auto far = Xbyak::CodeGenerator::T_NEAR;
    g.mov(eax, r8d);
    g.sub(eax, g.dword[rdi + L.fetch_base]);  // rel
    g.cmp(eax, kCodePageMask);
    g.ja(miss, far);
    g.add(eax, g.dword[rdi + L.fetch_page_offset]);  // off
    g.cmp(eax, g.dword[rdi + L.sram_size]);
    g.jae(miss, far);
}

// Cpu::fetch_next_line of the pc in r8d on its I-cache hit path: counted, the pc's line
// then fetch_line_; anything else to `other`, having changed nothing (it takes eax, ecx,
// r9-r11). In the shared subroutines (emit_shared), and inline in a loop. `in_page`: the
// pc is known to be in the fetch page - the next slot of a block, which lies in one page,
// the page the core fetches from while it runs the block - so in the cached view its SRAM
// offset is its distance from the view's base, with no test against the page's bounds.
void Translator::emit_line_hit(Xbyak::CodeGenerator& g, const Xbyak::Label& other, bool in_page) const {
    using namespace Xbyak::util;
    const Layout& L = layout_;
    const auto far = Xbyak::CodeGenerator::T_NEAR;
    g.cmp(g.byte[rdi + L.fetch_cached], 0);
    g.je(other, far);
    g.cmp(g.byte[rdi + L.icache_on], 0);
    g.je(other, far);
    if (in_page) {
        g.mov(eax, r8d);
        g.sub(eax, g.dword[rdi + L.cached_base]);  // off
    } else {
        emit_offset_in_page(g, other);
    }
    g.mov(ecx, g.dword[rdi + L.fetch_shift]);
    g.shr(eax, cl);  // the line
    g.mov(r10d, eax);
    g.shr(r10d, 6);
    g.mov(r9, g.qword[rdi + L.icache_resident]);
    g.mov(r11, g.qword[r9 + r10 * 8]);
    g.bt(r11, rax);
    g.jnc(other, far);
    g.add(g.qword[rdi + L.icache_accesses], 1);
    g.mov(eax, r8d);
    g.shr(eax, cl);
    g.mov(g.dword[rdi + L.fetch_line], eax);
}

// A block's closing branch or jump, its next pc in r8d: from `taken` it pays a taken
// branch's bubble, then from `chain` (the returned offset from `taken`) Cpu::chain_to(r8d):
// on into the block there, its slot in rsi and its pc in edx, when the loop would run it
// whole next; else back to the loop with the pc, or to Cpu::chain_stopped. As a
// subroutine (`shared`, every block calls it) it returns to its caller for the jump into
// the next block - each block keeps its own indirect jump, which the host predicts by the
// block it ends - and its other ways out drop that return. A block whose closing branch
// loops back into it has it inline: a loop pays no call for each pass. `to`: what is known
// of the next pc when translating (Reach): nothing (a jalr's), or that it is in the fetch
// page, in another line than the branch (its step needs no test of the page's bounds) or
// in the branch's own line, the fetch line then (no step, and no test of which line it is).
size_t Translator::emit_chain(Xbyak::CodeGenerator& g, Xbyak::Label& taken, Xbyak::Label& chain, bool shared,
                              Reach to) const {
    using namespace Xbyak::util;
    using Xbyak::Label;
    const Layout& L = layout_;
    const auto far = Xbyak::CodeGenerator::T_NEAR;
    const uint8_t* from = g.getCurr();
    g.L(taken);
    g.mov(eax, g.dword[rdi + L.branch_penalty]);
    g.add(g.qword[rdi + L.cycle], rax);
    const size_t chain_at = size_t(g.getCurr() - from);
    g.L(chain);
    Label back_to_loop, stopped, in_line;
    g.mov(edx, r8d);
    g.mov(rax, g.qword[rdi + L.cycle]);
    g.cmp(rax, g.qword[rdi + L.limit]);
    g.jae(back_to_loop, far);
    g.cmp(g.dword[rdi + L.chain_left], 0);
    g.je(back_to_loop, far);
    g.mov(g.dword[rdi + L.pc], edx);
    if (to == Reach::Anywhere) {
        g.mov(ecx, g.dword[rdi + L.fetch_shift]);
        g.mov(eax, edx);
        g.shr(eax, cl);
        g.cmp(eax, g.dword[rdi + L.fetch_line]);
        g.je(in_line, far);
        if (!shared) {  // a loop's: its hit inline, anything else through the subroutine
            Label other;
            emit_line_hit(g, other, false);
            g.jmp(in_line, far);
            g.L(other);
        }
    }
    if (to != Reach::SameLine) {
        g.call(to == Reach::OtherLineInPage ? next_line_in_page_ : next_line_);
        g.jne(back_to_loop, far);
    }
    g.L(in_line);
    g.mov(esi, edx);
    g.sub(esi, g.dword[rdi + L.fetch_base]);
    g.shr(esi, 2);
    g.shl(rsi, 5);
    g.add(rsi, g.qword[rdi + L.fetch_page]);  // the pc's slot
    g.movzx(ecx, g.byte[rsi + int32_t(offsetof(Insn, block_n))]);
    g.test(ecx, ecx);
    g.jz(stopped, far);  // to be built
    g.movzx(eax, g.word[rsi + int32_t(offsetof(Insn, block_pre))]);
    g.add(rax, g.qword[rdi + L.cycle]);
    g.cmp(rax, g.qword[rdi + L.limit]);
    g.jae(stopped, far);  // near the horizon
    g.sub(g.dword[rdi + L.chain_left], 1);
    // Cpu::run_block
    g.movzx(eax, g.word[rsi + int32_t(offsetof(Insn, block_cost))]);
    g.add(g.qword[rdi + L.cycle], rax);
    g.add(g.qword[rdi + L.instret], rcx);
    g.lea(eax, g.ptr[rdx + rcx * 4 - 4]);
    g.mov(g.dword[rdi + L.pc], eax);
    if (shared) g.ret();  // the caller jumps into the slot
    else g.jmp(g.qword[rsi + int32_t(offsetof(Insn, entry))]);
    g.L(back_to_loop);  // the loop goes on from the pc
    if (shared) g.add(rsp, 8);
    g.mov(eax, edx);
    g.ret();
    g.L(stopped);  // rsi the pc's slot, edx the pc
    if (shared) g.add(rsp, 8);
    g.mov(rax, reinterpret_cast<uint64_t>(&chain_stopped));
    g.jmp(rax);
    return chain_at;
}

// Cpu::data_word_store of the store at SRAM offset eax, to `decoded` if it writes a word a
// decoded instruction covers (its code page's slot for it is not the decode handler's).
// Takes r8-r10.
void Translator::emit_data_word(Xbyak::CodeGenerator& g, const Xbyak::Label& decoded) const {
    using namespace Xbyak::util;
    const Layout& L = layout_;
    Xbyak::Label data_word;
    g.mov(r9, g.qword[rdi + L.code_pages]);
    g.mov(r8d, eax);
    g.shr(r8d, kCodePageShift);
    g.mov(r9, g.qword[r9 + r8 * 8]);
    g.test(r9, r9);
    g.jz(data_word);  // no code in its page
    g.mov(r8d, eax);
    g.and_(r8d, kCodePageMask & ~3u);
    static_assert(sizeof(Insn) == 32 && offsetof(Insn, fn) == 0);
    g.mov(r10, reinterpret_cast<uint64_t>(kDecodeHandler));
    g.cmp(g.qword[r9 + r8 * 8], r10);  // slot (off & mask) / 4, 32 bytes each
    g.jne(decoded, Xbyak::CodeGenerator::T_NEAR);
    g.L(data_word);
}

// The D-cache hit test of SRAM offset rax (CacheModel::resident of its line), to `miss`
// with CF clear if the line is absent; on a hit counted, a store's line marked dirty, and
// the SRAM's bytes into r9 for the access. Takes ecx and r8-r11.
void Translator::emit_dcache_hit(Xbyak::CodeGenerator& g, bool store, const Xbyak::Label& miss) const {
    using namespace Xbyak::util;
    const Layout& L = layout_;
    g.mov(ecx, g.dword[rdi + L.dline_shift]);
    g.mov(r8d, eax);
    g.shr(r8d, cl);  // the line
    g.mov(r10d, r8d);
    g.shr(r10d, 6);  // its word of bits
    g.mov(r9, g.qword[rdi + L.resident]);
    g.mov(r11, g.qword[r9 + r10 * 8]);
    g.bt(r11, r8);
    g.jnc(miss, Xbyak::CodeGenerator::T_NEAR);
    g.add(g.qword[rdi + L.accesses], 1);
    if (store) {
        g.mov(r11, g.qword[rdi + L.dirty]);  // CacheModel::mark_dirty
        g.mov(rcx, g.qword[r11 + r10 * 8]);
        g.bts(rcx, r8);
        g.mov(g.qword[r11 + r10 * 8], rcx);
    }
    g.mov(r9, g.qword[rdi + L.sram_data]);
}

// The code every block shares, once at the arena's head. Each block had its own copy of the
// chain into the next block (some 270 bytes) and, at each fetch line it crossed, of the step
// into the next line (some 90): half a block's code on its hot path, and the blocks a
// message runs spread over more than the host's I-cache (callgrind's model of it: a 64-node
// halo missed it about 3,300 times a message in translated code, once in twelve host
// instructions there).
void Translator::emit_shared() {
    using namespace Xbyak::util;
    using Xbyak::Label;
    const Layout& L = layout_;
    const auto far = Xbyak::CodeGenerator::T_NEAR;
    Xbyak::CodeGenerator g(kArenaBytes - used_, arena_ + used_);
    // Cpu::fetch_next_line of the pc in r8d, a subroutine (it takes eax, ecx, r9-r11): ZF
    // set when the pc's line is then fetch_line_ - an I-cache hit (emit_line_hit), or a
    // fetch in the page not through the I-cache, which it charges its fixed fill - and
    // clear, having changed nothing, otherwise.
    g.align(64);
    next_line_ = g.getCurr();
    Label other, uncached, miss;
    emit_line_hit(g, other, false);
    g.cmp(eax, eax);  // ZF: fetched
    g.ret();
    // The same for the next slot of a block (emit_line_hit's in_page): five instructions
    // fewer on its hit path; anything else as above.
    next_line_in_page_ = g.getCurr();
    emit_line_hit(g, other, true);
    g.cmp(eax, eax);
    g.ret();
    g.L(other);
    g.cmp(g.byte[rdi + L.fetch_cached], 0);
    g.je(uncached, far);
    g.cmp(g.byte[rdi + L.icache_on], 0);
    g.je(uncached, far);
    g.L(miss);
    g.test(rsp, rsp);  // not ZF: never 0
    g.ret();
    g.L(uncached);
    emit_offset_in_page(g, miss);
    g.cmp(g.qword[rdi + L.fetch_page], 0);
    g.je(miss, far);
    g.mov(ecx, g.dword[rdi + L.uncached_fill]);
    g.add(g.qword[rdi + L.cycle], rcx);
    g.add(g.qword[rdi + L.stall], rcx);
    g.mov(ecx, g.dword[rdi + L.fetch_shift]);
    g.mov(eax, r8d);
    g.shr(eax, cl);
    g.mov(g.dword[rdi + L.fetch_line], eax);
    g.cmp(eax, eax);
    g.ret();

    // A load's and a store's D-cache hit test (emit_dcache_hit) as subroutines: CF set on a
    // hit, with the SRAM's bytes in r9, and clear, having changed nothing, otherwise. A store
    // not in a group enters one step earlier, at its test that it writes no decoded word.
    // Inline, they were most of a load's or store's host code: the firmware a round trip
    // runs took 110 KB of it (72 KB now), over three times a 32 KB instruction cache. A loop
    // keeps them inline, as it keeps its chain, so that its passes pay no calls.
    for (const bool store : {false, true}) {
        g.align(16);
        Label missed, decoded;
        if (store) {
            data_store_hit_ = g.getCurr();
            emit_data_word(g, decoded);
        }
        (store ? dcache_store_hit_ : dcache_load_hit_) = g.getCurr();
        emit_dcache_hit(g, store, missed);
        g.stc();  // a hit (the count's add and a store's bts took CF)
        g.L(missed);  // CF clear: bt found the line absent
        g.ret();
        if (store) {
            g.L(decoded);
            g.clc();
            g.ret();
        }
    }

    // A block's closing branch or jump (emit_chain), shared: one for each Reach.
    for (const Reach to : {Reach::Anywhere, Reach::OtherLineInPage, Reach::SameLine}) {
        g.align(64);
        Label taken, chain;
        Chain& c = chains_[size_t(to)];
        c.taken = g.getCurr();
        c.not_taken = c.taken + emit_chain(g, taken, chain, true, to);
    }
    g.ready();
    if (perf_map_) {
        std::fprintf(perf_map_, "%zx %zx niclab_shared_chain\n", reinterpret_cast<size_t>(g.getCode()), g.getSize());
        std::fflush(perf_map_);
    }
    used_ += (g.getSize() + 63) & ~size_t(63);
}

void Translator::translate(const Cpu& cpu, Insn* first, uint32_t n, uint64_t line_ends, uint32_t pc) {
    if (!arena_ || used_ >= kArenaBytes) return;
    if (!laid_out_) find_layout(cpu);
    if (!layout_.ok) return;
    if (!next_line_) {
        try {
            emit_shared();
        } catch (const Xbyak::Error&) {
            used_ = kArenaBytes;  // no room even for it: nothing is translated
            return;
        }
    }
    // Slots run inline: inside the block (not its last) and of a form translated here,
    // and the last when it is a branch or jump that chains.
    std::vector<Form> forms(n);
    uint32_t inline_slots = 0;
    for (uint32_t k = 0; k + 1 < n; ++k) {
        forms[k] = form_of(first[k].fn);
        inline_slots += forms[k].kind != Kind::Other;
    }
    const bool end = translated_end(first[n - 1]);
    if (inline_slots == 0 && !end) return;

    const Layout& L = layout_;
    std::vector<const uint8_t*> entries(n, nullptr);
    try {
        using namespace Xbyak::util;
        using Xbyak::Label;
        Xbyak::CodeGenerator g(kArenaBytes - used_, arena_ + used_);
        // The paths a SeaStar's firmware never takes (its caches are on) go after the block's
        // last slot, so its own path runs straight through as before they were translated:
        // with them inline, a 0-byte Portals round trip took about 4 % more host time. Labels live
        // until the code is done (a deque keeps them in place), and before the generator.
        std::deque<Label> labels;
        const auto fresh = [&]() -> Label& { return labels.emplace_back(); };
        std::deque<std::function<void()>> cold;
        const auto reg = [&](uint32_t r) { return g.dword[rdi + (L.x + 4 * int32_t(r))]; };
        const auto far = Xbyak::CodeGenerator::T_NEAR;
        Label leave_block;
        // Each load or store operation's way out to its full path (op::full_form), one per
        // operation the block has, made at its first use.
        std::vector<std::pair<Handler, Label*>> full_paths;
        const auto full_path = [&](Handler fn) -> Label& {
            for (auto& [h, label] : full_paths)
                if (h == fn) return *label;
            return *full_paths.emplace_back(fn, &fresh()).second;
        };
        // A block that loops back into itself (its closing branch's target in it) keeps its
        // chain and its fetch-line steps inline: a loop's pass pays no calls (with its chain
        // shared, the CRC-32 loop ran a fifth to a quarter slower; with its fetch-line steps
        // alone shared, it ran 4 % more host instructions).
        const Insn& last = first[n - 1];
        const bool loop = end && last.fn != op::jalr && last.imm <= 0 && -last.imm <= int32_t(4 * (n - 1));
        // Cpu::fetch_next_line of the pc in r8d, the next slot's (the shared subroutine for
        // it, emit_shared; a loop's I-cache hit inline), to `miss` (having changed nothing)
        // unless the pc's line is then fetch_line_.
        const auto fetch_next_line = [&](const Label& miss) {
            if (loop) {
                Label& other = fresh();
                Label& fetched = fresh();
                emit_line_hit(g, other, true);
                g.L(fetched);
                cold.push_back([&, &other = other, &fetched = fetched, &miss = miss] {
                    g.L(other);
                    g.call(next_line_);
                    g.jne(miss, far);
                    g.jmp(fetched, far);
                });
                return;
            }
            g.call(next_line_in_page_);
            g.jne(miss, far);
        };
        // Which firmware registers eax and ecx hold where the code being emitted runs. The
        // registers are stored to the Cpu all the same, so every way out is as before; an
        // instruction reading one its predecessor wrote takes it from eax or ecx instead of
        // loading it back from the store just made (a chain of dependent instructions waited
        // on each such store, as the CRC-32 loop's table lookup did). Empty at a block's
        // head and a group's, after anything that takes eax or ecx for itself, and in cold
        // code; a slot the loop enters while they hold something is entered through a stub
        // that loads them first (`enter`).
        struct Held {
            int eax = -1, ecx = -1;
            bool has(uint32_t r) const { return eax == int(r) || ecx == int(r); }
        } held;
        const auto kept = [](uint32_t r) { return r == 0 || r >= 32 ? -1 : int(r); };  // x0, the discard slot: never
        // eax now holds x[rd], just stored: a copy of the old x[rd] in ecx is stale.
        const auto result_in_eax = [&](uint32_t rd) {
            if (held.ecx == int(rd)) held.ecx = -1;
            held.eax = kept(rd);
        };
        // x[r] into eax.
        const auto to_eax = [&](uint32_t r) {
            if (held.eax == int(r)) return;
            if (held.ecx == int(r)) g.mov(eax, ecx);
            else g.mov(eax, reg(r));
        };
        // Slot k's entry from the loop: here, or through a stub loading what `held` says when
        // the slot's code may read them (a register field naming one; if not, they are
        // dropped there instead: most entries then cost nothing more).
        const auto enter = [&](uint32_t k) {
            const Insn& in = first[k];
            if (in.fn == op::lui || in.fn == op::auipc || in.fn == op::jal || !(held.has(in.rs1) || held.has(in.rs2)))
                held = {};
            if (held.eax < 0 && held.ecx < 0) {
                entries[k] = g.getCurr();
                return;
            }
            Label& here = fresh();
            g.L(here);
            cold.push_back([&, k, h = held, &here = here] {
                entries[k] = g.getCurr();
                if (h.eax >= 0) g.mov(eax, reg(uint32_t(h.eax)));
                if (h.ecx >= 0) g.mov(ecx, reg(uint32_t(h.ecx)));
                g.jmp(here, far);
            });
        };
        // A load's or store's address in eax, its SRAM offset (rax: zero-extended) once it
        // is aligned and in the fast view; a misaligned one leaves the block for its full
        // path, one outside the fast view goes to `outside` (its offset in eax) or there too.
        const auto load_address = [&](const Insn& in, const Form& f, const Label* outside = nullptr) {
            Label& full = full_path(in.fn);
            to_eax(in.rs1);
            g.add(eax, in.imm);  // the address
            if (f.size > 1) {
                g.test(al, f.size - 1);
                g.jnz(full, far);
            }
            g.sub(eax, g.dword[rdi + L.cached_base]);
            g.cmp(eax, g.dword[rdi + L.fast_size]);
            g.jae(outside ? *outside : full, far);
        };
        // The load's value from SRAM offset rax into its register, the SRAM's bytes in r9.
        const auto load_from = [&](const Insn& in, const Form& f) {
            if (f.size == 1) f.sign ? g.movsx(ecx, g.byte[r9 + rax]) : g.movzx(ecx, g.byte[r9 + rax]);
            else if (f.size == 2) f.sign ? g.movsx(ecx, g.word[r9 + rax]) : g.movzx(ecx, g.word[r9 + rax]);
            else g.mov(ecx, g.dword[r9 + rax]);
            g.mov(reg(in.rd), ecx);
        };
        const auto load_value = [&](const Insn& in, const Form& f) {
            g.mov(r9, g.qword[rdi + L.sram_data]);
            load_from(in, f);
        };
        // The access at SRAM offset rax (in the fast view, aligned) on its D-cache hit path, or
        // to its full path: the hit test a shared subroutine (emit_shared) or, in a loop,
        // inline. `data_store`: a store not in a group, first found to write no decoded word.
        const auto cached_access = [&](const Insn& in, const Form& f, bool data_store) {
            const bool store = f.kind == Kind::Store;
            if (loop) {
                if (data_store) emit_data_word(g, full_path(in.fn));
                emit_dcache_hit(g, store, full_path(in.fn));
            } else {
                g.call(!store ? dcache_load_hit_ : data_store ? data_store_hit_ : dcache_store_hit_);
                g.jnc(full_path(in.fn), far);
            }
            if (f.kind == Kind::Load) {
                load_from(in, f);
            } else {
                g.mov(ecx, reg(in.rs2));
                if (f.size == 1) g.mov(g.byte[r9 + rax], cl);
                else if (f.size == 2) g.mov(g.word[r9 + rax], cx);
                else g.mov(g.dword[r9 + rax], ecx);
            }
        };
        // A group's checks, to `single` if one fails: the D-cache on, the base aligned for
        // its widest access, all it reaches in the fast view, no decoded code in the code
        // pages its stores reach (the pages of their first and last byte: 16 KB apart at most).
        const auto group_checks = [&](const Group& run, const Label& single) {
            g.cmp(g.byte[rdi + L.dcache_on], 0);
            g.je(single, far);
            g.mov(eax, reg(run.base));
            if (run.widest > 1) {
                g.test(al, run.widest - 1);
                g.jnz(single, far);
            }
            g.sub(eax, g.dword[rdi + L.cached_base]);
            if (run.lo) g.add(eax, run.lo);  // the offset of its lowest byte
            g.cmp(eax, g.dword[rdi + L.fast_size]);
            g.jae(single, far);
            g.lea(ecx, g.ptr[rax + (run.end - run.lo)]);
            g.cmp(ecx, g.dword[rdi + L.fast_size]);
            g.ja(single, far);
            if (run.store_lo < run.store_end) {
                g.mov(r9, g.qword[rdi + L.code_pages]);
                for (int32_t at : {run.store_lo, run.store_end - 1}) {
                    g.lea(r8d, g.ptr[rax + (at - run.lo)]);
                    g.shr(r8d, kCodePageShift);
                    g.cmp(g.qword[r9 + r8 * 8], 0);
                    g.jne(single, far);
                }
            }
        };
        // Slot k (not the block's last), and on to the next: `grouped` in the checked copy of
        // a group's run (below), where its loads and stores take their hit path at once;
        // `entry` where the loop enters the slot.
        const auto emit_slot = [&](uint32_t k, bool grouped, bool entry) {
            const Insn& in = first[k];
            const Form f = forms[k];
            // Here: rdi the Cpu, rsi this slot, edx its pc - the threaded entry's arguments.
            if (f.kind == Kind::Other) {
                g.jmp(g.qword[rsi + int32_t(offsetof(Insn, entry))]);  // its threaded form
                held = {};
                return;
            }
            if (entry) enter(k);
            const int32_t imm = in.imm;
            if (f.kind == Kind::Alu) {
                const Handler fn = in.fn;
                using namespace op;
                const bool commutes = fn == add || fn == xor_ || fn == or_ || fn == and_ || fn == mul;
                if (fn == lui) {
                    g.mov(reg(in.rd), imm);
                    if (held.eax == int(in.rd)) held.eax = -1;
                    if (held.ecx == int(in.rd)) held.ecx = -1;
                } else if (fn == auipc) {
                    g.lea(eax, g.ptr[edx + imm]);
                    g.mov(reg(in.rd), eax);
                    result_in_eax(in.rd);
                } else if (fn == slti || fn == sltiu || fn == slt || fn == sltu) {
                    to_eax(in.rs1);
                    g.xor_(ecx, ecx);
                    if (fn == slti || fn == sltiu) g.cmp(eax, imm);
                    else g.cmp(eax, reg(in.rs2));
                    if (fn == slti || fn == slt) g.setl(cl);
                    else g.setb(cl);
                    g.mov(reg(in.rd), ecx);
                    held.eax = in.rd == in.rs1 ? -1 : kept(in.rs1);
                    held.ecx = kept(in.rd);
                } else if (commutes && !held.has(in.rs1) && held.has(in.rs2)) {
                    // rs2 is the one at hand: the operands the other way round.
                    to_eax(in.rs2);
                    if (fn == add) g.add(eax, reg(in.rs1));
                    else if (fn == xor_) g.xor_(eax, reg(in.rs1));
                    else if (fn == or_) g.or_(eax, reg(in.rs1));
                    else if (fn == and_) g.and_(eax, reg(in.rs1));
                    else g.imul(eax, reg(in.rs1));
                    g.mov(reg(in.rd), eax);
                    result_in_eax(in.rd);
                } else {
                    to_eax(in.rs1);
                    if (fn == addi) g.add(eax, imm);
                    else if (fn == xori) g.xor_(eax, imm);
                    else if (fn == ori) g.or_(eax, imm);
                    else if (fn == andi) g.and_(eax, imm);
                    else if (fn == slli) g.shl(eax, uint8_t(imm & 31));
                    else if (fn == srli) g.shr(eax, uint8_t(imm & 31));
                    else if (fn == srai) g.sar(eax, uint8_t(imm & 31));
                    else if (fn == add) g.add(eax, reg(in.rs2));
                    else if (fn == sub) g.sub(eax, reg(in.rs2));
                    else if (fn == xor_) g.xor_(eax, reg(in.rs2));
                    else if (fn == or_) g.or_(eax, reg(in.rs2));
                    else if (fn == and_) g.and_(eax, reg(in.rs2));
                    else if (fn == mul) g.imul(eax, reg(in.rs2));
                    else {  // sll, srl, sra: x86 takes the count mod 32, as RV32I does
                        if (held.ecx != int(in.rs2)) g.mov(ecx, reg(in.rs2));
                        held.ecx = kept(in.rs2);
                        if (fn == sll) g.shl(eax, cl);
                        else if (fn == srl) g.shr(eax, cl);
                        else g.sar(eax, cl);
                    }
                    g.mov(reg(in.rd), eax);
                    result_in_eax(in.rd);
                }
            } else if (grouped) {
                // The group's checks hold: in the fast view, aligned, the D-cache on, no code.
                to_eax(in.rs1);
                g.sub(eax, g.dword[rdi + L.cached_base]);
                if (imm) g.add(eax, imm);
                cached_access(in, f, false);
            } else {
                // Cpu::sram_hit / sram_data_store_hit, in their order, with nothing changed
                // before the last test. With the D-cache off a store's threaded form runs it
                // (a posted write); a load pays the SRAM's read, then Cpu::block_next's check
                // of a cost charged on the way.
                Label& uncached = fresh();
                Label& accessed = fresh();
                Label& other_view = fresh();
                g.cmp(g.byte[rdi + L.dcache_on], 0);
                g.je(uncached, far);
                const bool line_end = line_ends >> k & 1;
                cold.push_back([&, &in = in, f, line_end, &next = first[k + 1], &uncached = uncached,
                                &accessed = accessed, &other_view = other_view] {
                    // Outside the fast view of cached SRAM (the offset there in eax): in the
                    // uncached view, on through its threaded form's uncached path; anything
                    // else (a device, a host window, a watchpoint: fast_size is 0) its full path.
                    g.L(other_view);
                    g.add(eax, g.dword[rdi + L.cached_base]);  // the address again
                    g.sub(eax, g.dword[rdi + L.uncached_base]);
                    g.cmp(eax, g.dword[rdi + L.fast_size]);
                    g.jae(full_path(in.fn), far);
                    g.mov(rax, reinterpret_cast<uint64_t>(op::uncached_form(in.fn, line_end)));
                    g.jmp(rax);
                    g.L(uncached);
                    if (f.kind == Kind::Store) {
                        g.mov(rax, reinterpret_cast<uint64_t>(in.entry));
                        g.jmp(rax);
                        return;
                    }
                    load_address(in, f, &other_view);
                    g.mov(ecx, g.dword[rdi + L.sram_read]);
                    g.add(g.qword[rdi + L.cycle], rcx);
                    g.add(g.qword[rdi + L.stall], rcx);
                    load_value(in, f);
                    g.mov(rax, g.qword[rdi + L.cycle]);
                    g.sub(rax, int32_t(next.block_cost - next.block_pre));
                    g.cmp(rax, g.qword[rdi + L.limit]);
                    g.jb(accessed, far);
                    // The rest of the block's cost and count back, and the loop goes on at the next slot.
                    g.sub(g.qword[rdi + L.cycle], int32_t(next.block_cost));
                    g.sub(g.qword[rdi + L.instret], int32_t(next.block_n));
                    g.lea(eax, g.ptr[edx + 4]);
                    g.ret();
                });
                load_address(in, f, &other_view);
                cached_access(in, f, true);
                g.L(accessed);
            }
            if (f.kind != Kind::Alu) {  // eax the offset; ecx the value loaded or stored
                held.eax = -1;
                held.ecx = kept(f.kind == Kind::Load ? in.rd : in.rs2);
            }
            if (line_ends >> k & 1) {
                // Cpu::block_next<true, false>: the next line an I-cache hit or a fetch not
                // through the I-cache, and the next slot not at the horizon; anything else as
                // the threaded form does it.
                Label& other = fresh();
                g.lea(r8d, g.ptr[edx + 4]);
                fetch_next_line(other);
                const Insn& next = first[k + 1];
                g.lea(rsi, g.ptr[rsi + int32_t(sizeof(Insn))]);  // the next slot's arguments (no flags)
                g.mov(edx, r8d);
                g.mov(rax, g.qword[rdi + L.cycle]);
                g.sub(rax, int32_t(next.block_cost - next.block_pre));
                g.cmp(rax, g.qword[rdi + L.limit]);
                g.jae(leave_block, far);  // the next slot, alone (leave_block's), then the loop
                cold.push_back([&, &other = other] {
                    g.L(other);  // rsi and edx still this slot's
                    g.add(edx, 4);
                    g.mov(rax, reinterpret_cast<uint64_t>(&cross));
                    g.jmp(rax);
                });
                held = {};  // the fetch took eax and ecx
                return;
            }
            // On to the next slot, whose arguments these become.
            g.add(rsi, int32_t(sizeof(Insn)));
            g.add(edx, 4);
        };
        const std::vector<Group> groups = find_groups(first, forms, n);
        size_t next_group = 0;
        for (uint32_t k = 0; k + 1 < n; ++k) {
            if (next_group == groups.size() || groups[next_group].first != k) {
                emit_slot(k, false, true);
                continue;
            }
            // A group: its checks once, then its run with each load and store on its hit
            // path at once; where they fail, its run as single slots (the loop enters
            // the group's later slots there too), on after the run either way.
            const Group& run = groups[next_group++];
            Label& single = fresh();
            Label& after = fresh();
            entries[k] = g.getCurr();
            group_checks(run, single);
            held = {};  // the checks took eax and ecx
            for (uint32_t j = run.first; j <= run.last; ++j) emit_slot(j, true, false);
            g.L(after);
            held = {};  // the single slots come here too
            cold.push_back([&, k, last = run.last, &single = single, &after = after] {
                g.L(single);
                for (uint32_t j = k; j <= last; ++j) emit_slot(j, false, j != k);
                g.jmp(after, far);
            });
            k = run.last;
        }
        // The block's last slot.
        if (!end) {
            g.jmp(g.qword[rsi + int32_t(offsetof(Insn, entry))]);
        } else {
            enter(n - 1);
            // The handler: the next pc into r8d, then the chain (emit_chain), a taken branch or
            // jump by way of its bubble, and on into the next block: the chain every block
            // shares, or a loop's own.
            using namespace op;
            const Handler fn = last.fn;
            Label taken, chain;
            // Whether a next pc `delta` bytes from the last slot's lies in the page: by the slot's
            // place in its page, the same for every core that runs the page's code (a page is
            // 16 KB of SRAM offsets; the view's base is the translating core's).
            const uint32_t view = pc - cpu.sram_.cached_base < cpu.sram_.size ? cpu.sram_.cached_base : cpu.sram_.uncached_base;
            const uint32_t last_pc = pc + 4 * (n - 1);
            const int64_t last_in_page = int64_t((last_pc - view) & kCodePageMask);
            // The lines of a page lie alike for every core that runs its code (CodeKey: line
            // size and phase in each view), so the last slot's pc tells which line a next pc is
            // in - where both views' lines begin at the same offsets, for the code may run in either.
            const uint32_t shift = cpu.fetch_shift_;
            const bool lines_alike = ((cpu.sram_.cached_base ^ cpu.sram_.uncached_base) & ((1u << shift) - 1)) == 0;
            const auto reach = [&](int64_t delta) {
                if (!lines_alike || last_in_page + delta < 0 || last_in_page + delta >= kCodePageBytes) return Reach::Anywhere;
                return (last_pc >> shift) == (uint32_t(last_pc + delta) >> shift) ? Reach::SameLine : Reach::OtherLineInPage;
            };
            const uint8_t* taken_chain = chains_[size_t(reach(last.imm))].taken;  // jalr: not known
            const uint8_t* next_chain = chains_[size_t(reach(4))].not_taken;
            const uint8_t* any_taken = chains_[size_t(Reach::Anywhere)].taken;
            const auto go = [&](Label& inline_at, const uint8_t* shared_at) {
                if (loop) {
                    g.jmp(inline_at, far);
                    return;
                }
                g.call(shared_at);
                g.jmp(g.qword[rsi + int32_t(offsetof(Insn, entry))]);
            };
            if (fn == jal || fn == jalr) {
                if (fn == jalr) {
                    g.mov(r8d, reg(last.rs1));
                    g.add(r8d, last.imm);
                    g.and_(r8d, ~1u);
                    g.test(r8b, 3);
                    Label aligned;
                    g.jz(aligned);
                    g.mov(rax, reinterpret_cast<uint64_t>(last.entry));  // traps: its threaded form's
                    g.jmp(rax);
                    g.L(aligned);
                } else {
                    g.lea(r8d, g.ptr[edx + last.imm]);
                }
                g.lea(eax, g.ptr[edx + 4]);
                g.mov(reg(last.rd), eax);
                if (!loop) go(taken, fn == jal ? taken_chain : any_taken);  // a jump back into the block falls into its chain
            } else {
                Label branch_taken;
                Label& on_taken = loop ? taken : branch_taken;  // a loop's: its own chain's
                to_eax(last.rs1);
                g.cmp(eax, reg(last.rs2));
                g.lea(r8d, g.ptr[edx + last.imm]);
                if (fn == beq) g.je(on_taken, far);
                else if (fn == bne) g.jne(on_taken, far);
                else if (fn == blt) g.jl(on_taken, far);
                else if (fn == bge) g.jge(on_taken, far);
                else if (fn == bltu) g.jb(on_taken, far);
                else g.jae(on_taken, far);
                g.lea(r8d, g.ptr[edx + 4]);
                go(chain, next_chain);
                if (!loop) {
                    g.L(branch_taken);
                    go(taken, taken_chain);
                }
            }
            if (loop) emit_chain(g, taken, chain, false, Reach::Anywhere);
        }
        // Each may add more (a group's single slots add their own paths): a deque keeps them in place.
        for (size_t i = 0; i < cold.size(); ++i) {
            held = {};  // cold code starts from anywhere: it loads what it reads
            cold[i]();
        }
        g.L(leave_block);  // rsi and edx are still the slot's that left
        g.mov(rax, reinterpret_cast<uint64_t>(&leave));
        g.jmp(rax);
        for (auto& [fn, label] : full_paths) {
            g.L(*label);
            g.mov(rax, reinterpret_cast<uint64_t>(op::full_form(fn)));
            g.jmp(rax);
        }
        g.ready();
        if (perf_map_) name_for_perf(g.getCode(), g.getSize(), pc, n);
        used_ += (g.getSize() + 63) & ~size_t(63);
    } catch (const Xbyak::Error&) {
        used_ = kArenaBytes;  // out of space: the rest stays threaded
        return;
    }
    for (uint32_t k = 0; k < n; ++k)
        if (entries[k]) {
            first[k].entry = reinterpret_cast<Handler>(const_cast<uint8_t*>(entries[k]));
            ++slots_;
        }
}

}  // namespace niclab::core
