// Polling fast-forward: a firmware spinning on SRAM or on a device register, e.g.
//     1: lw   a5, 0(a0)        while (*flag == seen)
//        beq  a5, a3, 1b           ;
// repeats the same pass, at the same cost, until something outside the core writes
// the word - and nothing outside the core runs inside one of its bursts (the kernel
// fires events only between bursts; a device access only moves its clock). So once a
// pass is seen whole, the core can charge the passes left before the burst's limit at
// once, instead of running them, and stop where plain execution would have: the same
// cycle, instruction count, stalls, cache statistics, registers and kernel time, to
// the cycle (tests/cpp/core/test_cpu_spin_skip.cpp and tests/cpp/nic/test_polling.cpp
// compare the two).
//
// Which loops (spin_loop(), decided on the decoded slots when the loop's closing
// branch ends a block, and checked again before each skip): a backward conditional
// branch, or a `j` to itself or back, closing a straight run of loads and
// register-only instructions inside one code page, in which no register is read
// before the pass writes it if the pass writes it at all. Then a pass depends only on
// registers it does not change and on memory, so every pass is the pass before.
// Which passes (Cpu::spin_check, at the taken closing branch): one that ran inside
// the current burst from the loop's head to its branch (its instruction count is the
// loop's length), with no trap, no cache miss (so the caches are as they were, and
// the next pass hits where this one did), and no device load but of registers the bus
// calls pure (Bus::pure_read: no side effect, a fixed latency, a value only events
// and stores change - the NICs' ring indices and status registers; not a cycle
// counter, and never a host-memory window, whose path is shared).
//
// Left alone: loops that read impure registers, loops that count (a timeout), and
// loops that store.
#include "handlers.hpp"

namespace niclab::core {

namespace {
constexpr uint64_t bit(uint32_t reg) { return uint64_t(1) << reg; }
// Longest loop body considered, in instructions: polling loops are a handful.
constexpr uint32_t kMaxSpinBody = 32;

bool is_load(Handler fn) { return fn == op::lb || fn == op::lh || fn == op::lw || fn == op::lbu || fn == op::lhu; }
bool is_branch(Handler fn) {
    return fn == op::beq || fn == op::bne || fn == op::blt || fn == op::bge || fn == op::bltu || fn == op::bgeu;
}
// The registers an instruction reads (its Insn keeps the raw rs1/rs2 fields of every
// format, so which it reads depends on the operation).
uint64_t reads(const Insn& in) {
    if (in.fn == op::lui || in.fn == op::auipc || in.fn == op::jal) return 0;
    const bool r_type = is_branch(in.fn) || in.fn == op::add || in.fn == op::sub || in.fn == op::sll ||
                        in.fn == op::slt || in.fn == op::sltu || in.fn == op::xor_ || in.fn == op::srl ||
                        in.fn == op::sra || in.fn == op::or_ || in.fn == op::and_ || in.fn == op::mul ||
                        in.fn == op::mulh || in.fn == op::mulhsu || in.fn == op::mulhu || in.fn == op::div ||
                        in.fn == op::divu || in.fn == op::rem || in.fn == op::remu;
    return bit(in.rs1) | (r_type ? bit(in.rs2) : 0);
}
}  // namespace

// `branch` is a decoded slot of a code page and `before` the slots ahead of it in that
// page: is it the closing branch of a loop whose passes are all alike?
bool spin_loop(const Insn* branch, uint32_t before) {
    const bool jump = branch->fn == op::jal && branch->rd == 32;  // j: jal with x0 as rd
    if (!(jump || is_branch(branch->fn)) || branch->imm > 0 || (branch->imm & 3)) return false;
    const uint32_t body = uint32_t(-branch->imm) / 4;  // slots before the branch in the loop
    if (body > before || body >= kMaxSpinBody) return false;
    const Insn* head = branch - body;
    uint64_t written = 0;
    for (uint32_t k = 0; k < body; ++k) {
        const Insn& in = head[k];
        if (!is_load(in.fn) && !op::register_only(in.fn)) return false;  // not decoded, or not a load or register-only
        written |= bit(in.rd);
    }
    written &= ~bit(32);  // the x0 sink is never read
    uint64_t defined = 0;
    for (uint32_t k = 0; k <= body; ++k) {
        if (reads(head[k]) & written & ~defined) return false;  // a value carried from the last pass
        defined |= bit(head[k].rd);
    }
    return true;
}

void Cpu::spin_check(uint32_t head, uint32_t branch_pc, const Insn& branch) {
    const uint32_t length = (branch_pc - head) / 4 + 1;
    SpinPass& last = spin_;
    const bool whole_pass = last.head == head && last.burst == bursts_ && instret_ - last.instret == length &&
                            impure_loads_ == last.impure_loads &&
                            counts_.exceptions + counts_.interrupts == last.traps &&
                            icache_.misses == last.icache_misses && dcache_.misses == last.dcache_misses;
    const uint64_t pass = cycle_ - last.cycle;  // 0 only if a preset made every cost 0
    // Running ahead, only to the horizon: a pass's loads may be of what others share.
    const uint64_t limit = std::min(limit_, horizon_limit_);
    if (whole_pass && spin_skip_ && limit > cycle_ && pass > 0) {
        const uint64_t n = (limit - cycle_) / pass;  // passes that end by the limit
        // The slots may have changed since the block was built (a store into code):
        // the loop must still be one whose passes are all alike.
        if (n > 0 && spin_loop(&branch, length - 1)) {
            cycle_ += n * pass;
            instret_ += n * length;
            stall_cycles_ += n * (stall_cycles_ - last.stall);
            icache_.accesses += n * (icache_.accesses - last.icache_accesses);
            dcache_.accesses += n * (dcache_.accesses - last.dcache_accesses);
            counts_.uncached_loads += n * (counts_.uncached_loads - last.uncached_loads);
            if (counts_.device_loads != last.device_loads) {
                // The last skipped pass's last device load set the kernel's clock.
                counts_.device_loads += n * (counts_.device_loads - last.device_loads);
                device_load_cycle_ += n * pass;
                kernel_.sync_to(time_at_cycle(device_load_cycle_));
            }
            spin_passes_skipped_ += n;
        }
    }
    last = SpinPass{head,           bursts_,           cycle_,           instret_,           stall_cycles_,
                    icache_.accesses, icache_.misses,  dcache_.accesses, dcache_.misses,     counts_.uncached_loads,
                    counts_.device_loads, impure_loads_,     counts_.exceptions + counts_.interrupts};
}

namespace op {
// The closing branch of a spin loop (Insn::entry of its slot, set by build_block): the
// branch, then, when it goes back to the loop's head, the check for a pass to repeat.
uint32_t spin_branch(Cpu& c, const Insn& in, uint32_t pc) {
    const uint32_t next = in.fn(c, in, pc);
    if (next == pc + uint32_t(in.imm)) c.spin_check(next, pc, in);
    return next;
}
}  // namespace op

}  // namespace niclab::core
