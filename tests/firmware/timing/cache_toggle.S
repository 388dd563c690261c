/*
 * The loop of loop_cached.S as a subroutine, run with the caches off, then right
 * after the firmware turns the I-cache on (as main does after crt0), then again:
 *
 *   [0] caches off
 *   [1] first run after enabling the I-cache: the loop's lines miss once each,
 *       and nothing else may be charged (the same as a cold start with the
 *       I-cache on)
 *   [2] warm
 *
 * Layout as in loop_cached.S: loop_start begins an I-cache line, measure_start
 * ends the line before it.
 */
#include "timing.h"

#define ITERATIONS 1000

    .option norelax
    .section .text.start, "ax"
    .globl  _start
_start:
    boot_running
    jal     ra, measured_loop
    store_result 0
    set_caches NICLAB_CACHE_I
    jal     ra, measured_loop
    store_result 1
    jal     ra, measured_loop
    store_result 2
    halt

    .balign 32
measured_loop:
    li      s4, ITERATIONS          /* 6 words, so measure_begin fills the line */
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
    ret

    timing_results_array 3
