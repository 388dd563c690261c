/*
 * Assembler macros shared by the timing firmwares. Each firmware measures regions
 * of straight-line or looping code with mcycle/minstret and stores the deltas in
 * timing_results (uncached SRAM, so the host reads them without a D-cache flush),
 * then halts. The C++ tests (tests/cpp/core/test_timing_*.cpp) compare them with
 * formulas built from the preset's parameters.
 *
 * What a measured region costs beyond its own instructions: measure_begin reads
 * mcycle and then minstret, measure_end reads mcycle and then minstret again. The
 * mcycle read already includes its own cost, so the cycle delta covers the first
 * minstret read, the region and the closing mcycle read: 2 x cpi_csr extra (with
 * the I-cache off, plus a line read for each line the pc enters). The instret delta counts the region plus
 * the two closing CSR reads: 2 extra.
 *
 * Registers: s0-s3 belong to the macros; t0 is scratch.
 */
#ifndef NICLAB_TESTS_TIMING_H
#define NICLAB_TESTS_TIMING_H

#include "niclab/fw/hw.h"

/* Tell the loader we run (seed 000 §3.2): it stops waiting at this store. */
.macro boot_running
    li      t0, NICLAB_BOOT_FLAG_ADDR
    li      t1, NICLAB_BOOT_RUNNING
    sw      t1, 0(t0)
.endm

/* Caches on or off (NICLAB_CACHE_I | NICLAB_CACHE_D), as fw_cache_enable does. */
.macro set_caches mask
    li      t0, NICLAB_CTRL_BASE + NICLAB_CTRL_CACHE
    li      t1, \mask
    sw      t1, 0(t0)
.endm

/* Stop the core cleanly with exit code 0. */
.macro halt
    li      t0, NICLAB_CTRL_BASE + NICLAB_CTRL_HALT
    sw      zero, 0(t0)
99: j       99b
.endm

.macro measure_begin
    csrr    s0, mcycle
    csrr    s1, minstret
.endm

/* Leaves the cycle delta in s2 and the instret delta in s3. */
.macro measure_end
    csrr    s2, mcycle
    csrr    s3, minstret
    sub     s2, s2, s0
    sub     s3, s3, s1
.endm

/* timing_results[slot] = {cycles, instret} (two words per slot). */
.macro store_result slot
    la      t0, timing_results + 8 * (\slot)
    sw      s2, 0(t0)
    sw      s3, 4(t0)
.endm

/* The results array, in uncached SRAM (zeroed by the loader). */
.macro timing_results_array slots
    .pushsection .uncached, "aw", @nobits
    .balign 8
    .globl  timing_results
    .type   timing_results, @object
timing_results:
    .skip   8 * (\slots)
    .size   timing_results, . - timing_results
    .popsection
.endm


/* The measured ALU loop of loop_cached.S and cache_toggle.S: `iterations` x (7 ALU
 * instructions, a decrement and a taken branch but the last), starting on a fresh
 * 32-byte line (the caller aligns to 32 first; the 6 words before the loop make
 * measure_begin end on the line boundary). Exports measure_start/loop_start/loop_end. */
.macro alu_loop iterations
    li      s4, \iterations
    nop
    nop
    nop
    nop
    nop
    .globl  measure_start
measure_start:
    measure_begin
    .globl  loop_start
loop_start:
    addi    a1, a1, 1
    addi    a2, a2, 3
    xor     a3, a1, a2
    add     a4, a4, a3
    slli    a5, a4, 1
    or      a6, a5, a1
    and     a7, a6, a2
    addi    s4, s4, -1
    bnez    s4, loop_start
    .globl  loop_end
loop_end:
    measure_end
.endm

#endif /* NICLAB_TESTS_TIMING_H */
