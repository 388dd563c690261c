/*
 * Loops of multiplies and of divides: 4 M-extension instructions + count down +
 * taken branch per iteration. decode.cpp charges cpi_mul to mul/mulh/mulhsu/mulhu
 * and cpi_div to div/divu/rem/remu. The I-cache is on and everything runs twice;
 * the warm second pass overwrites the results.
 *
 * timing_results: [0] multiply loop, [1] divide loop.
 */
#include "timing.h"

#define ITERATIONS 100

    .option norelax

    .section .text.start, "ax"
    .globl  _start
_start:
    boot_running
    set_caches NICLAB_CACHE_I
    li      t2, 1000003
    li      t3, 7
    li      s5, 2
pass:
    li      s4, ITERATIONS
    measure_begin
1:  mul     t1, t2, t3
    mulh    t1, t2, t3
    mulhsu  t1, t2, t3
    mulhu   t1, t2, t3
    addi    s4, s4, -1
    bnez    s4, 1b
    measure_end
    store_result 0

    li      s4, ITERATIONS
    measure_begin
2:  div     t1, t2, t3
    divu    t1, t2, t3
    rem     t1, t2, t3
    remu    t1, t2, t3
    addi    s4, s4, -1
    bnez    s4, 2b
    measure_end
    store_result 1

    addi    s5, s5, -1
    bnez    s5, pass
    halt

    timing_results_array 2
