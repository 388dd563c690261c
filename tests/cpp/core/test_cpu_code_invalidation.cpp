// The core decodes each instruction word once and caches the result; these tests
// check that every way code can change (a store by the core, a host write with
// invalidate_code, fence.i, a reset) makes the new instruction execute, and that
// re-decoding is charged like a first decode.
#include "cpu_fixture.hpp"

namespace niclab::test {
namespace {

using namespace rv;

class CodeInvalidation : public CpuTest {};

// Self-modifying code: the core stores a new instruction over one it has already
// executed, then jumps back to it.
TEST_F(CodeInvalidation, StoreByTheCoreReplacesADecodedInstruction) {
    const uint32_t replacement = addi(1, 0, 7);
    program(0x00, {
        addi(10, 0, 2),      // 0x00  two passes
        addi(1, 0, 1),       // 0x04  T: overwritten after the first pass
        addi(10, 10, -1),    // 0x08
        beq(10, 0, 0x10),    // 0x0c  -> 0x1c when done
        sw(2, 3, 4),         // 0x10  *(x3 + 4) = x2: overwrite T
        jal(0, -0x10),       // 0x14  -> T
        nop(),               // 0x18
        wfi(),               // 0x1c
    });
    core::Cpu& c = start();
    c.set_reg(2, replacement);
    c.set_reg(3, kCachedBase);
    run_until(Time::us(10));
    EXPECT_EQ(c.state(), core::Cpu::State::Waiting);
    EXPECT_EQ(peek(0x04), replacement);
    EXPECT_EQ(c.reg(1), 7u) << "the stale decode of T ran again";
}

// A word written by someone else (loader, DMA, debugger) is picked up once the
// writer tells the core with invalidate_code.
TEST_F(CodeInvalidation, HostWriteWithInvalidateCodeIsExecuted) {
    program(0x00, {
        addi(5, 0, int32_t(core::kMipMTIP)),
        csrrs(0, kMie, 5),   // mie.MTIE, so wfi can be woken
        addi(1, 0, 1),       // 0x08  T
        wfi(),               // 0x0c
        jal(0, -8),          // 0x10  -> T
    });
    core::Cpu& c = start();
    run_until(Time::us(1));
    ASSERT_EQ(c.state(), core::Cpu::State::Waiting);
    ASSERT_EQ(c.reg(1), 1u);

    poke(0x08, addi(1, 0, 9));
    c.invalidate_code(0x08, 4);
    c.set_interrupt_pending(core::kMipMTIP, true);  // wake (mstatus.MIE = 0: no trap)
    c.set_interrupt_pending(core::kMipMTIP, false);
    run_until(Time::us(2));
    EXPECT_EQ(c.reg(1), 9u);
    EXPECT_EQ(c.state(), core::Cpu::State::Waiting);
}

// fence.i discards every decoded instruction, so code written behind the core's
// back runs after the firmware's own fence.i.
TEST_F(CodeInvalidation, FenceIPicksUpCodeWrittenBehindTheCoresBack) {
    program(0x00, {
        addi(5, 0, int32_t(core::kMipMTIP)),
        csrrs(0, kMie, 5),
        addi(1, 0, 1),       // 0x08  T
        wfi(),               // 0x0c
        fence_i(),           // 0x10
        jal(0, -12),         // 0x14  -> T
    });
    core::Cpu& c = start();
    run_until(Time::us(1));
    ASSERT_EQ(c.reg(1), 1u);

    poke(0x08, addi(1, 0, 11));  // no invalidate_code: only fence.i can make this visible
    c.set_interrupt_pending(core::kMipMTIP, true);
    c.set_interrupt_pending(core::kMipMTIP, false);
    run_until(Time::us(2));
    EXPECT_EQ(c.reg(1), 11u);
}

// An instruction decoded again after an invalidation costs what a first decode
// costs: its own class cost plus the fetch, once.
TEST_F(CodeInvalidation, ReplacedInstructionIsChargedItsOwnCostOnce) {
    program(0x00, {
        addi(10, 0, 2),      // 0x00
        div(1, 5, 6),        // 0x04  T: a div (expensive), replaced by an addi
        addi(10, 10, -1),    // 0x08
        beq(10, 0, 0x10),    // 0x0c  -> 0x1c
        sw(2, 3, 4),         // 0x10
        jal(0, -0x10),       // 0x14  -> T
        nop(),               // 0x18
        wfi(),               // 0x1c
    });
    core::Cpu& c = start();
    c.set_reg(2, addi(1, 0, 7));
    c.set_reg(3, kCachedBase);
    run_until(Time::us(10));
    ASSERT_EQ(c.reg(1), 7u);
    // Executed: addi, div, addi, beq, sw, jal, addi (new T), addi, beq, wfi; two taken.
    // All in one line: one line read (the rewritten word is decoded again, not fetched).
    const uint64_t expected = line_read() + cfg_.cpi_div + 8 * cfg_.cpi_alu + cfg_.cpi_store +
                              2 * cfg_.taken_branch_penalty;
    EXPECT_EQ(c.instret(), 10u);
    EXPECT_EQ(c.cycles(), expected);
}

// Releasing reset again (what a firmware reload does) must give the same timing as
// the first run: the previous run's decodes must leave no trace.
TEST_F(CodeInvalidation, SecondRunAfterResetCostsTheSame) {
    program(0x00, {div(1, 5, 6), addi(2, 0, 1), wfi()});
    core::Cpu& c = start();
    run_until(Time::us(1));
    const uint64_t first = c.cycles();
    EXPECT_EQ(first, line_read() + cfg_.cpi_div + 2 * cfg_.cpi_alu);

    c.release_reset(kCachedBase);
    run_until(Time::us(2));
    EXPECT_EQ(c.cycles(), first);
}

}  // namespace
}  // namespace niclab::test
