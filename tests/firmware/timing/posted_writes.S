/*
 * Bursts of N = 1..8 back-to-back stores to uncached SRAM, each starting with an
 * empty write buffer (fence drains it), then one burst of 8 followed by a fence
 * (the drain). Stores are posted: up to core.posted_writes of them are
 * outstanding without stalling the core; each keeps the bus busy for
 * core.sram_write_cycles, and the writes go out one after the other.
 *
 * The I-cache is on and everything runs twice; the second pass overwrites the
 * results of the first, so no I-cache miss lands in a measured region.
 *
 * timing_results: [N-1] burst of N stores, [8] burst of 8 + fence.
 */
#include "timing.h"

    .option norelax

.macro burst n, slot
    fence                           /* start with every write slot free */
    measure_begin
    .rept   \n
    sw      zero, 0(a0)
    .endr
    measure_end
    store_result \slot
.endm

    .section .text.start, "ax"
    .globl  _start
_start:
    boot_running
    set_caches NICLAB_CACHE_I
    la      a0, scratch
    li      s5, 2
pass:
    burst   1, 0
    burst   2, 1
    burst   3, 2
    burst   4, 3
    burst   5, 4
    burst   6, 5
    burst   7, 6
    burst   8, 7
    fence
    measure_begin
    .rept   8
    sw      zero, 0(a0)
    .endr
    fence
    measure_end
    store_result 8
    addi    s5, s5, -1
    bnez    s5, pass
    halt

    .pushsection .uncached, "aw", @nobits
    .balign 4
scratch:
    .skip   4
    .popsection

    timing_results_array 9
