// Semantics of every RV32IM + Zicsr instruction (unprivileged spec ch. 2 and 7,
// privileged spec ch. 3). A handler gets the instruction's pc in a register and
// returns the next pc (the dispatch loop keeps it in a register too; Cpu::pc_ holds
// the same value while the handler runs, for traps). The loop has already charged the
// instruction's base cost.
#include <climits>
#include <cstring>

#include "handlers.hpp"

namespace niclab::core::op {

namespace {
inline int32_t s(uint32_t v) { return int32_t(v); }
inline uint32_t& rd(Cpu& c, const Insn& in) { return c.x_[in.rd]; }
inline uint32_t r1(Cpu& c, const Insn& in) { return c.x_[in.rs1]; }
inline uint32_t r2(Cpu& c, const Insn& in) { return c.x_[in.rs2]; }
}  // namespace

uint32_t lui(Cpu& c, const Insn& in, uint32_t pc) { rd(c, in) = uint32_t(in.imm); return pc + 4; }
uint32_t auipc(Cpu& c, const Insn& in, uint32_t pc) { rd(c, in) = pc + uint32_t(in.imm); return pc + 4; }

uint32_t jal(Cpu& c, const Insn& in, uint32_t pc) {
    uint32_t target = pc + uint32_t(in.imm);
    if (target & 3) return c.branch_to(target);  // traps; rd is not written
    rd(c, in) = pc + 4;
    return c.branch_to(target);
}
uint32_t jalr(Cpu& c, const Insn& in, uint32_t pc) {
    uint32_t target = (r1(c, in) + uint32_t(in.imm)) & ~1u;
    if (target & 3) return c.branch_to(target);
    rd(c, in) = pc + 4;
    return c.branch_to(target);
}

#define NICLAB_BRANCH(name, cond)                                              \
    uint32_t name(Cpu& c, const Insn& in, uint32_t pc) {                       \
        return (cond) ? c.branch_to(pc + uint32_t(in.imm)) : pc + 4;           \
    }
NICLAB_BRANCH(beq, r1(c, in) == r2(c, in))
NICLAB_BRANCH(bne, r1(c, in) != r2(c, in))
NICLAB_BRANCH(blt, s(r1(c, in)) < s(r2(c, in)))
NICLAB_BRANCH(bge, s(r1(c, in)) >= s(r2(c, in)))
NICLAB_BRANCH(bltu, r1(c, in) < r2(c, in))
NICLAB_BRANCH(bgeu, r1(c, in) >= r2(c, in))
#undef NICLAB_BRANCH

// Loads and stores: a D-cache hit in cached SRAM (the common case) is handled
// inline without any call, so the handler needs no stack frame; everything else
// (misses, uncached SRAM, devices, host windows, traps) tail-calls the full path.
#define NICLAB_LOAD(name, T)                                                   \
    [[gnu::noinline]] uint32_t name##_full(Cpu& c, const Insn& in, uint32_t addr) { \
        T v;                                                                   \
        if (!c.load<T>(addr, v)) return c.pc_; /* trapped: pc_ is the handler */ \
        rd(c, in) = uint32_t(int32_t(v));                                      \
        return c.pc_ + 4;                                                      \
    }                                                                          \
    uint32_t name(Cpu& c, const Insn& in, uint32_t pc) {                       \
        uint32_t addr = r1(c, in) + uint32_t(in.imm), off;                     \
        if (!c.sram_hit(addr, sizeof(T), off)) return name##_full(c, in, addr); \
        T v;                                                                   \
        std::memcpy(&v, c.sram_data() + off, sizeof(T));                       \
        rd(c, in) = uint32_t(int32_t(v));                                      \
        return pc + 4;                                                         \
    }
NICLAB_LOAD(lb, int8_t)
NICLAB_LOAD(lh, int16_t)
NICLAB_LOAD(lw, uint32_t)
NICLAB_LOAD(lbu, uint8_t)
NICLAB_LOAD(lhu, uint16_t)
#undef NICLAB_LOAD

#define NICLAB_STORE(name, T)                                                  \
    [[gnu::noinline]] uint32_t name##_full(Cpu& c, const Insn& in, uint32_t addr) { \
        return c.store<T>(addr, T(r2(c, in))) ? c.pc_ + 4 : c.pc_;             \
    }                                                                          \
    uint32_t name(Cpu& c, const Insn& in, uint32_t pc) {                       \
        uint32_t addr = r1(c, in) + uint32_t(in.imm), off;                     \
        if (!c.sram_store_hit(addr, sizeof(T), off)) return name##_full(c, in, addr); \
        T v = T(r2(c, in));                                                    \
        std::memcpy(c.sram_data() + off, &v, sizeof(T));                       \
        return pc + 4;                                                         \
    }
NICLAB_STORE(sb, uint8_t)
NICLAB_STORE(sh, uint16_t)
NICLAB_STORE(sw, uint32_t)
#undef NICLAB_STORE

#define NICLAB_ALU(name, expr)                                                 \
    uint32_t name(Cpu& c, const Insn& in, uint32_t pc) { rd(c, in) = (expr); return pc + 4; }
NICLAB_ALU(addi, r1(c, in) + uint32_t(in.imm))
NICLAB_ALU(slti, s(r1(c, in)) < in.imm ? 1u : 0u)
NICLAB_ALU(sltiu, r1(c, in) < uint32_t(in.imm) ? 1u : 0u)
NICLAB_ALU(xori, r1(c, in) ^ uint32_t(in.imm))
NICLAB_ALU(ori, r1(c, in) | uint32_t(in.imm))
NICLAB_ALU(andi, r1(c, in) & uint32_t(in.imm))
NICLAB_ALU(slli, r1(c, in) << in.imm)
NICLAB_ALU(srli, r1(c, in) >> in.imm)
NICLAB_ALU(srai, uint32_t(s(r1(c, in)) >> in.imm))
NICLAB_ALU(add, r1(c, in) + r2(c, in))
NICLAB_ALU(sub, r1(c, in) - r2(c, in))
NICLAB_ALU(sll, r1(c, in) << (r2(c, in) & 31))
NICLAB_ALU(slt, s(r1(c, in)) < s(r2(c, in)) ? 1u : 0u)
NICLAB_ALU(sltu, r1(c, in) < r2(c, in) ? 1u : 0u)
NICLAB_ALU(xor_, r1(c, in) ^ r2(c, in))
NICLAB_ALU(srl, r1(c, in) >> (r2(c, in) & 31))
NICLAB_ALU(sra, uint32_t(s(r1(c, in)) >> (r2(c, in) & 31)))
NICLAB_ALU(or_, r1(c, in) | r2(c, in))
NICLAB_ALU(and_, r1(c, in) & r2(c, in))
NICLAB_ALU(mul, r1(c, in) * r2(c, in))
NICLAB_ALU(mulh, uint32_t((int64_t(s(r1(c, in))) * int64_t(s(r2(c, in)))) >> 32))
NICLAB_ALU(mulhsu, uint32_t((int64_t(s(r1(c, in))) * int64_t(uint64_t(r2(c, in)))) >> 32))
NICLAB_ALU(mulhu, uint32_t((uint64_t(r1(c, in)) * uint64_t(r2(c, in))) >> 32))
// Division never traps in RISC-V: x/0 = all ones, x%0 = x, INT_MIN/-1 = INT_MIN, INT_MIN%-1 = 0.
NICLAB_ALU(div, r2(c, in) == 0 ? ~0u
                : (s(r1(c, in)) == INT_MIN && s(r2(c, in)) == -1) ? r1(c, in)
                : uint32_t(s(r1(c, in)) / s(r2(c, in))))
NICLAB_ALU(divu, r2(c, in) == 0 ? ~0u : r1(c, in) / r2(c, in))
NICLAB_ALU(rem, r2(c, in) == 0 ? r1(c, in)
                : (s(r1(c, in)) == INT_MIN && s(r2(c, in)) == -1) ? 0u
                : uint32_t(s(r1(c, in)) % s(r2(c, in))))
NICLAB_ALU(remu, r2(c, in) == 0 ? r1(c, in) : r1(c, in) % r2(c, in))
#undef NICLAB_ALU

// The rest change machine state through Cpu, which leaves the next pc in pc_.
uint32_t fence(Cpu& c, const Insn&, uint32_t) { c.exec_fence(); return c.pc_; }
uint32_t fence_i(Cpu& c, const Insn&, uint32_t) { c.exec_fence_i(); return c.pc_; }
uint32_t ecall(Cpu& c, const Insn&, uint32_t) { c.trap(uint32_t(TrapCause::EcallM), 0); return c.pc_; }
uint32_t ebreak(Cpu& c, const Insn&, uint32_t pc) { c.trap(uint32_t(TrapCause::Breakpoint), pc); return c.pc_; }
uint32_t mret(Cpu& c, const Insn&, uint32_t) { c.exec_mret(); return c.pc_; }
uint32_t wfi(Cpu& c, const Insn&, uint32_t) { c.exec_wfi(); return c.pc_; }

uint32_t csrrw(Cpu& c, const Insn& in, uint32_t) { c.exec_csr(in, r1(c, in), true, false, false); return c.pc_; }
uint32_t csrrs(Cpu& c, const Insn& in, uint32_t) { c.exec_csr(in, r1(c, in), false, true, false); return c.pc_; }
uint32_t csrrc(Cpu& c, const Insn& in, uint32_t) { c.exec_csr(in, r1(c, in), false, false, true); return c.pc_; }
uint32_t csrrwi(Cpu& c, const Insn& in, uint32_t) { c.exec_csr(in, in.rs1, true, false, false); return c.pc_; }
uint32_t csrrsi(Cpu& c, const Insn& in, uint32_t) { c.exec_csr(in, in.rs1, false, true, false); return c.pc_; }
uint32_t csrrci(Cpu& c, const Insn& in, uint32_t) { c.exec_csr(in, in.rs1, false, false, true); return c.pc_; }

uint32_t illegal(Cpu& c, const Insn& in, uint32_t) {
    c.trap(uint32_t(TrapCause::IllegalInstruction), uint32_t(in.imm));
    return c.pc_;
}
uint32_t decode(Cpu& c, const Insn& in, uint32_t) { return c.decode_and_execute(in); }

namespace {
// The handler inlined, then a tail jump to the next slot of the block: one indirect
// jump per instruction, each at its own site, instead of a call and a return through the
// loop. kCross: the slot is the last of its fetch line (Cpu::block_next).
template <Handler H, bool kCross>
uint32_t chain(Cpu& c, const Insn& in, uint32_t pc) {
    pc = H(c, in, pc);
    if constexpr (kCross) return c.block_next<true, false>(in, pc);
    const Insn& next = (&in)[1];
    return next.entry(c, next, pc);
}
}  // namespace

bool register_only(Handler fn) {
#define NICLAB_REGISTER_ONLY(name) if (fn == name) return true;
    NICLAB_STRAIGHT_OPS(NICLAB_REGISTER_ONLY)
#undef NICLAB_REGISTER_ONLY
    return false;
}

namespace {
using FullPath = uint32_t (*)(Cpu&, const Insn&, uint32_t addr);

// A load or store inside a block whose fast path is closed: straight to its full path
// (Cpu::leave_to_full), not through its handler's test of the fast path again.
template <FullPath Full>
uint32_t leave_to(Cpu& c, const Insn& in, uint32_t pc) {
    return c.leave_to_full(in, pc, Full);
}

// A load or store inside a block in the uncached SRAM view (a firmware's FW_UNCACHED data:
// the mailboxes and control block the host shares, some 90 accesses a steady Portals round
// trip): load_slow's or store_slow's access, then on through the block, whose end the
// access's cost may have moved to the horizon (block_next). Anything else, and one held
// back while running ahead, takes its full path (Cpu::uncached_load_in_block).
template <typename T, FullPath Full, bool kCross>
uint32_t chain_uncached_load(Cpu& c, const Insn& in, uint32_t pc) {
    const uint32_t addr = r1(c, in) + uint32_t(in.imm);
    uint32_t off;
    if (!c.uncached_load_in_block(addr, sizeof(T), off, in)) return leave_to<Full>(c, in, pc);
    T v;
    std::memcpy(&v, c.sram_data() + off, sizeof(T));
    rd(c, in) = uint32_t(int32_t(v));
    return c.block_next<kCross>(in, pc + 4);
}
template <typename T, FullPath Full, bool kCross>
uint32_t chain_uncached_store(Cpu& c, const Insn& in, uint32_t pc) {
    const uint32_t addr = r1(c, in) + uint32_t(in.imm);
    uint32_t off;
    if (!c.uncached_store_in_block(addr, sizeof(T), off, in)) return leave_to<Full>(c, in, pc);
    const T v = T(r2(c, in));
    std::memcpy(c.sram_data() + off, &v, sizeof(T));
    return c.block_next<kCross>(in, pc + 4);
}

// A load or store inside a block: the handler's fast path, then on to the next slot.
template <typename T, FullPath Full, bool kCross>
uint32_t chain_load(Cpu& c, const Insn& in, uint32_t pc) {
    const uint32_t addr = r1(c, in) + uint32_t(in.imm);
    uint32_t off;
    if (!c.sram_hit(addr, sizeof(T), off)) [[unlikely]] return chain_uncached_load<T, Full, kCross>(c, in, pc);
    T v;
    std::memcpy(&v, c.sram_data() + off, sizeof(T));
    rd(c, in) = uint32_t(int32_t(v));
    // A D-cache hit costs nothing past the base cost; with the D-cache off the read's latency.
    return c.dcache_enabled() ? c.block_next<kCross, false>(in, pc + 4) : c.block_next<kCross>(in, pc + 4);
}
// A store inside a block off the D-cache hit path: with the D-cache off, the posted write
// (out of line, so the hit path keeps no frame); otherwise, or outside cached SRAM, the
// uncached view's store or the full path.
template <typename T, FullPath Full, bool kCross>
[[gnu::noinline]] uint32_t chain_posted_store(Cpu& c, const Insn& in, uint32_t pc) {
    const uint32_t addr = r1(c, in) + uint32_t(in.imm);
    uint32_t off;
    if (!c.posted_data_store(addr, sizeof(T), off, in)) return chain_uncached_store<T, Full, kCross>(c, in, pc);
    const T v = T(r2(c, in));
    std::memcpy(c.sram_data() + off, &v, sizeof(T));
    return c.block_next<kCross>(in, pc + 4);
}
template <typename T, FullPath Full, bool kCross>
uint32_t chain_store(Cpu& c, const Insn& in, uint32_t pc) {
    const uint32_t addr = r1(c, in) + uint32_t(in.imm);
    uint32_t off;
    if (!c.sram_data_store_hit(addr, sizeof(T), off)) [[unlikely]]
        return c.dcache_enabled() ? chain_uncached_store<T, Full, kCross>(c, in, pc)
                                  : chain_posted_store<T, Full, kCross>(c, in, pc);
    const T v = T(r2(c, in));
    std::memcpy(c.sram_data() + off, &v, sizeof(T));
    return c.block_next<kCross, false>(in, pc + 4);  // a D-cache hit: no cost past the base
}

// Each load and store: its type and its full path, for the forms above (F: chain_load ...).
#define NICLAB_MEMORY_FORMS(F, kCross)                                          \
    if (fn == lb) return F##_load<int8_t, lb_full, kCross>;                     \
    if (fn == lh) return F##_load<int16_t, lh_full, kCross>;                    \
    if (fn == lw) return F##_load<uint32_t, lw_full, kCross>;                   \
    if (fn == lbu) return F##_load<uint8_t, lbu_full, kCross>;                  \
    if (fn == lhu) return F##_load<uint16_t, lhu_full, kCross>;                 \
    if (fn == sb) return F##_store<uint8_t, sb_full, kCross>;                   \
    if (fn == sh) return F##_store<uint16_t, sh_full, kCross>;                  \
    if (fn == sw) return F##_store<uint32_t, sw_full, kCross>;

template <bool kCross>
Handler threaded_form(Handler fn) {
#define NICLAB_THREADED(name) if (fn == name) return chain<name, kCross>;
    NICLAB_STRAIGHT_OPS(NICLAB_THREADED)
#undef NICLAB_THREADED
    NICLAB_MEMORY_FORMS(chain, kCross)
    return nullptr;
}

template <bool kCross>
Handler uncached_form_of(Handler fn) {
    NICLAB_MEMORY_FORMS(chain_uncached, kCross)
    return nullptr;
}
#undef NICLAB_MEMORY_FORMS
}  // namespace

Handler threaded(Handler fn, bool line_end) { return line_end ? threaded_form<true>(fn) : threaded_form<false>(fn); }
Handler uncached_form(Handler fn, bool line_end) {
    return line_end ? uncached_form_of<true>(fn) : uncached_form_of<false>(fn);
}
Handler full_form(Handler fn) {
#define NICLAB_FULL_FORM(name) if (fn == name) return leave_to<name##_full>;
    NICLAB_MEMORY_OPS(NICLAB_FULL_FORM)
#undef NICLAB_FULL_FORM
    return nullptr;
}

namespace {
// A block's closing branch or jump: its target's block runs next from here (each branch
// its own indirect jump, as inside a block) unless the loop would do otherwise.
template <Handler H>
uint32_t chain_end(Cpu& c, const Insn& in, uint32_t pc) {
    return c.chain_to(H(c, in, pc));
}
}  // namespace

Handler block_end(Handler fn) {
#define NICLAB_BLOCK_END(name) if (fn == name) return chain_end<name>;
    NICLAB_BLOCK_END(jal) NICLAB_BLOCK_END(jalr)
    NICLAB_BLOCK_END(beq) NICLAB_BLOCK_END(bne) NICLAB_BLOCK_END(blt)
    NICLAB_BLOCK_END(bge) NICLAB_BLOCK_END(bltu) NICLAB_BLOCK_END(bgeu)
#undef NICLAB_BLOCK_END
    return fn;
}
// Stands in for the handler of an instruction with a debugger breakpoint (Cpu::set_breakpoint).
uint32_t debug_trap(Cpu& c, const Insn& in, uint32_t pc) { return c.debug_trap(in, pc); }

}  // namespace niclab::core::op
