/*
 * An ALU loop of known shape run from the cached SRAM view, twice: the first pass
 * starts with a cold I-cache, the second finds every line resident. CACHE_MODE is
 * the control-block cache mask (0 off, 1 I-cache, 3 I+D), so one source measures
 * what the I-cache buys and that the D-cache changes nothing for code without
 * data accesses.
 *
 * Loop body: 8 ALU instructions (the last one counts down) + a taken branch, so
 * ITERATIONS x 9 instructions and ITERATIONS - 1 taken branches.
 *
 * Layout (checked by the test from the symbols): loop_start is the first word of
 * an I-cache line and measure_start the last two words of the line before, which
 * the pass set-up has already fetched. The cold pass therefore misses exactly on
 * the lines of the loop (loop_start .. loop_end + 8, the closing CSR reads share
 * the loop's last line).
 *
 * timing_results: [0] cold pass, [1] warm pass.
 */
#include "timing.h"

#ifndef CACHE_MODE
#error "CACHE_MODE (control-block cache mask) must be defined"
#endif
#define ITERATIONS 1000

    .option norelax
    .section .text.start, "ax"
    .globl  _start
_start:
    boot_running
    set_caches CACHE_MODE
    li      s5, 0                   /* pass: 0 cold, 1 warm */

    .balign 32
pass:
    alu_loop ITERATIONS
    slli    t1, s5, 3               /* timing_results[pass] */
    la      t0, timing_results
    add     t0, t0, t1
    sw      s2, 0(t0)
    sw      s3, 4(t0)
    addi    s5, s5, 1
    li      t1, 2
    blt     s5, t1, pass
    halt

    timing_results_array 2
