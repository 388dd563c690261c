#include "translate.hpp"

#include <sys/mman.h>

#include <cstring>
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

// A load or store inside a block that takes its full path: Cpu::leave_block, with the
// Handler's arguments (the Cpu, the slot, its pc) where the translated code keeps them.
uint32_t leave(Cpu& c, const Insn& in, uint32_t pc) { return c.leave_block(in, pc); }
// The last slot of a fetch line, done: into the next line as its threaded form goes
// (Cpu::block_next, a slot that charged nothing past its base cost), then on to the
// next slot's entry - translated code again - or back to the loop.
uint32_t cross(Cpu& c, const Insn& in, uint32_t next_pc) { return c.block_next<true, false>(in, next_pc); }

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
}

Translator::~Translator() {
    if (arena_) munmap(arena_, kArenaBytes);
}

void Translator::find_layout(const Cpu& c) {
    laid_out_ = true;
    const auto at = [&c](const void* field) {
        return int32_t(reinterpret_cast<const char*>(field) - reinterpret_cast<const char*>(&c));
    };
    layout_.x = at(&c.x_[0]);
    layout_.sram_data = at(&c.sram_.data);
    layout_.cached_base = at(&c.sram_.cached_base);
    layout_.fast_size = at(&c.fast_sram_size_);
    layout_.dcache_on = at(&c.dcache_on_);
    layout_.dline_shift = at(&c.dline_shift_);
    layout_.code_pages = at(&c.code_pages_);
    layout_.resident = at(&c.dcache_.resident_bits());
    layout_.dirty = at(&c.dcache_.dirty_bits());
    layout_.accesses = at(&c.dcache_.accesses);
    layout_.ok = sizeof(bool) == 1 && begins_with_data(c.code_pages_) && begins_with_data(c.dcache_.resident_bits()) &&
                 begins_with_data(c.dcache_.dirty_bits());
}

void Translator::translate(const Cpu& cpu, Insn* first, uint32_t n, uint64_t line_ends) {
    if (!arena_ || used_ >= kArenaBytes) return;
    if (!laid_out_) find_layout(cpu);
    if (!layout_.ok) return;
    // Slots run inline: inside the block (not its last) and of a form translated here.
    std::vector<Form> forms(n);
    uint32_t inline_slots = 0;
    for (uint32_t k = 0; k + 1 < n; ++k) {
        forms[k] = form_of(first[k].fn);
        inline_slots += forms[k].kind != Kind::Other;
    }
    if (inline_slots == 0) return;

    const Layout& L = layout_;
    std::vector<const uint8_t*> entries(n, nullptr);
    try {
        using namespace Xbyak::util;
        Xbyak::CodeGenerator g(kArenaBytes - used_, arena_ + used_);
        const auto reg = [&](uint32_t r) { return g.dword[rdi + (L.x + 4 * int32_t(r))]; };
        Xbyak::Label leave_block;
        for (uint32_t k = 0; k < n; ++k) {
            const Insn& in = first[k];
            const Form f = forms[k];
            // Here: rdi the Cpu, rsi this slot, edx its pc - the threaded entry's arguments.
            if (f.kind == Kind::Other) {
                g.jmp(g.qword[rsi + int32_t(offsetof(Insn, entry))]);  // its threaded form, or the block's end
                continue;
            }
            entries[k] = g.getCurr();
            const int32_t imm = in.imm;
            if (f.kind == Kind::Alu) {
                const Handler fn = in.fn;
                using namespace op;
                if (fn == lui) {
                    g.mov(reg(in.rd), imm);
                } else if (fn == auipc) {
                    g.lea(eax, g.ptr[edx + imm]);
                    g.mov(reg(in.rd), eax);
                } else if (fn == slti || fn == sltiu || fn == slt || fn == sltu) {
                    g.mov(eax, reg(in.rs1));
                    g.xor_(ecx, ecx);
                    if (fn == slti || fn == sltiu) g.cmp(eax, imm);
                    else g.cmp(eax, reg(in.rs2));
                    if (fn == slti || fn == slt) g.setl(cl);
                    else g.setb(cl);
                    g.mov(reg(in.rd), ecx);
                } else {
                    g.mov(eax, reg(in.rs1));
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
                        g.mov(ecx, reg(in.rs2));
                        if (fn == sll) g.shl(eax, cl);
                        else if (fn == srl) g.shr(eax, cl);
                        else g.sar(eax, cl);
                    }
                    g.mov(reg(in.rd), eax);
                }
            } else {
                // Cpu::sram_hit / sram_data_store_hit, in their order, with nothing changed
                // before the last test: with the D-cache off the threaded form runs it.
                Xbyak::Label cached;
                g.cmp(g.byte[rdi + L.dcache_on], 0);
                g.jne(cached);
                g.mov(rax, reinterpret_cast<uint64_t>(in.entry));
                g.jmp(rax);
                g.L(cached);
                g.mov(eax, reg(in.rs1));
                g.add(eax, imm);  // the address
                if (f.size > 1) {
                    g.test(al, f.size - 1);
                    g.jnz(leave_block, Xbyak::CodeGenerator::T_NEAR);
                }
                g.sub(eax, g.dword[rdi + L.cached_base]);  // its SRAM offset (rax: zero-extended)
                g.cmp(eax, g.dword[rdi + L.fast_size]);
                g.jae(leave_block, Xbyak::CodeGenerator::T_NEAR);
                if (f.kind == Kind::Store) {  // Cpu::data_word_store: into no decoded word
                    Xbyak::Label data_word;
                    g.mov(r9, g.qword[rdi + L.code_pages]);
                    g.mov(r8d, eax);
                    g.shr(r8d, kCodePageShift);
                    g.mov(r9, g.qword[r9 + r8 * 8]);
                    g.test(r9, r9);
                    g.jz(data_word);
                    g.mov(r8d, eax);
                    g.and_(r8d, kCodePageMask & ~3u);
                    static_assert(sizeof(Insn) == 32 && offsetof(Insn, fn) == 0);
                    g.mov(r10, reinterpret_cast<uint64_t>(kDecodeHandler));
                    g.cmp(g.qword[r9 + r8 * 8], r10);  // slot (off & mask) / 4, 32 bytes each
                    g.jne(leave_block, Xbyak::CodeGenerator::T_NEAR);
                    g.L(data_word);
                }
                // CacheModel::resident(off >> dline_shift_)
                g.mov(ecx, g.dword[rdi + L.dline_shift]);
                g.mov(r8d, eax);
                g.shr(r8d, cl);               // the line
                g.mov(r10d, r8d);
                g.shr(r10d, 6);               // its word of bits
                g.mov(r9, g.qword[rdi + L.resident]);
                g.mov(r11, g.qword[r9 + r10 * 8]);
                g.bt(r11, r8);
                g.jnc(leave_block, Xbyak::CodeGenerator::T_NEAR);
                g.add(g.qword[rdi + L.accesses], 1);
                g.mov(r9, g.qword[rdi + L.sram_data]);
                if (f.kind == Kind::Load) {
                    if (f.size == 1) f.sign ? g.movsx(ecx, g.byte[r9 + rax]) : g.movzx(ecx, g.byte[r9 + rax]);
                    else if (f.size == 2) f.sign ? g.movsx(ecx, g.word[r9 + rax]) : g.movzx(ecx, g.word[r9 + rax]);
                    else g.mov(ecx, g.dword[r9 + rax]);
                    g.mov(reg(in.rd), ecx);
                } else {
                    g.mov(r11, g.qword[rdi + L.dirty]);  // CacheModel::mark_dirty
                    g.mov(rcx, g.qword[r11 + r10 * 8]);
                    g.bts(rcx, r8);
                    g.mov(g.qword[r11 + r10 * 8], rcx);
                    g.mov(ecx, reg(in.rs2));
                    if (f.size == 1) g.mov(g.byte[r9 + rax], cl);
                    else if (f.size == 2) g.mov(g.word[r9 + rax], cx);
                    else g.mov(g.dword[r9 + rax], ecx);
                }
            }
            if (line_ends >> k & 1) {  // this slot's the next pc, the next line entered in C++
                g.add(edx, 4);
                g.mov(rax, reinterpret_cast<uint64_t>(&cross));
                g.jmp(rax);
                continue;
            }
            // On to the next slot, whose arguments these become.
            g.add(rsi, int32_t(sizeof(Insn)));
            g.add(edx, 4);
        }
        g.L(leave_block);  // rsi and edx are still the slot's that left
        g.mov(rax, reinterpret_cast<uint64_t>(&leave));
        g.jmp(rax);
        g.ready();
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
