/*
 * Loads through the two SRAM views. The I-cache stays off: the core reads each line
 * the pc enters into its fill buffer, so every measured region is laid out in one
 * 32-byte line (li, the two reads, the 3-instruction loop, the two closing reads)
 * and its fetch is paid before the region starts.
 * The same loop (lw, count down, taken branch) runs four times:
 *
 *   [0] uncached view, D-cache off   every load pays sram_read_cycles
 *   [1] cached view,   D-cache off   the same: with the D-cache off the cached view
 *                                    goes to SRAM too
 *   [2] cached view,   D-cache on    one cold line fill, then hits
 *   [3] uncached view, D-cache on    the uncached view bypasses the D-cache
 */
#include "timing.h"

#define ITERATIONS 100

    .option norelax

.macro load_loop base_reg, slot
    .balign 32
    li      s4, ITERATIONS
    measure_begin
1:  lw      t1, 0(\base_reg)
    addi    s4, s4, -1
    bnez    s4, 1b
    measure_end
    store_result \slot
.endm

    .section .text.start, "ax"
    .globl  _start
_start:
    boot_running
    la      a0, uncached_word
    la      a1, cached_word
    load_loop a0, 0
    load_loop a1, 1
    set_caches NICLAB_CACHE_D
    load_loop a1, 2
    load_loop a0, 3
    halt

    .section .data, "aw"
    .balign 32                      /* a line of its own: exactly one cold miss */
cached_word:
    .word   0x12345678
    .balign 32

    .pushsection .uncached, "aw", @nobits
    .balign 4
uncached_word:
    .skip   4
    .popsection

    timing_results_array 4
