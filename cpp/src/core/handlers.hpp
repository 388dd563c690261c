#pragma once
// Instruction handlers, one per RV32IM/Zicsr operation (execute.cpp), referenced by
// the decoder (decode.cpp). Internal to the core layer.
#include "niclab/core/cpu.hpp"

namespace niclab::core::op {

// The register-only operations: they read and write registers and nothing else (no
// memory, CSR, pc_, counter or horizon), which is what lets them run inside a block.
#define NICLAB_STRAIGHT_OPS(X)                                                          \
    X(lui) X(auipc)                                                                     \
    X(addi) X(slti) X(sltiu) X(xori) X(ori) X(andi) X(slli) X(srli) X(srai)             \
    X(add) X(sub) X(sll) X(slt) X(sltu) X(xor_) X(srl) X(sra) X(or_) X(and_)            \
    X(mul) X(mulh) X(mulhsu) X(mulhu) X(div) X(divu) X(rem) X(remu)

#define NICLAB_OPS(X)                                                                   \
    NICLAB_STRAIGHT_OPS(X)                                                              \
    X(jal) X(jalr)                                                                      \
    X(beq) X(bne) X(blt) X(bge) X(bltu) X(bgeu)                                         \
    X(lb) X(lh) X(lw) X(lbu) X(lhu) X(sb) X(sh) X(sw)                                   \
    X(fence) X(fence_i) X(ecall) X(ebreak) X(mret) X(wfi)                               \
    X(csrrw) X(csrrs) X(csrrc) X(csrrwi) X(csrrsi) X(csrrci)                            \
    X(illegal) X(decode) X(debug_trap)

// Hidden: the library is built position-independent, and an exported function could be
// interposed, so the compiler would not inline a handler into its threaded form.
#define NICLAB_DECLARE_OP(name) [[gnu::visibility("hidden")]] uint32_t name(Cpu& c, const Insn& in, uint32_t pc);
NICLAB_OPS(NICLAB_DECLARE_OP)
#undef NICLAB_DECLARE_OP

// The full path of each load and store (execute.cpp): every case but a D-cache hit in the
// fast SRAM view, given the address.
#define NICLAB_MEMORY_OPS(X) X(lb) X(lh) X(lw) X(lbu) X(lhu) X(sb) X(sh) X(sw)
#define NICLAB_DECLARE_FULL(name) [[gnu::visibility("hidden")]] uint32_t name##_full(Cpu& c, const Insn& in, uint32_t addr);
NICLAB_MEMORY_OPS(NICLAB_DECLARE_FULL)
#undef NICLAB_DECLARE_FULL

// The closing branch of a polling loop (spin.cpp): the branch, then Cpu::spin_check.
[[gnu::visibility("hidden")]] uint32_t spin_branch(Cpu& c, const Insn& in, uint32_t pc);

// Is it one of NICLAB_STRAIGHT_OPS (execute.cpp)?
bool register_only(Handler fn);
// A handler's form inside a block (execute.cpp): it runs the handler, then jumps
// straight to the next slot's Insn::entry, so a block runs without returning to the
// loop. For loads and stores, only their fast path (an SRAM hit that needs nothing but
// its base cost and the D-cache's bookkeeping) goes on to the next slot; every other
// path leaves the block there (Cpu::leave_block). With `line_end` (the slot is the
// last word of its fetch line), it enters the next line as the loop would first
// (Cpu::block_next). Null for any other handler (branches, jumps, CSR and system
// instructions): those end their block.
Handler threaded(Handler fn, bool line_end);
// The threaded form of load or store `fn` (as threaded()) from where its address lies in
// the uncached SRAM view: the translated code's way on through the block there.
Handler uncached_form(Handler fn, bool line_end);
// Load or store `fn` inside a block, its fast path closed: its full path (op::lw_full and
// the like), as leave_block would reach it. The translated code's way out of the block.
Handler full_form(Handler fn);
// A block's last handler as the block runs it: for a branch or jump, the handler and then
// on into the block at the next pc (Cpu::chain_to); any other handler as it is.
Handler block_end(Handler fn);

}  // namespace niclab::core::op

namespace niclab::core {
// Is the decoded slot `branch`, with `before` slots ahead of it in its code page, the
// closing branch of a loop whose passes are all alike (spin.cpp)?
bool spin_loop(const Insn* branch, uint32_t before);
}  // namespace niclab::core
