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
    alu_loop ITERATIONS
    ret

    timing_results_array 3
