/*
 * ISA test harness, linked into every ISA test: start-up, the signature printer,
 * and the final "done" line and halt. No C runtime and no trap handler, so the
 * only instructions that run are the test's own and these.
 */
#include "platform.h"

    .section .text.start, "ax"
    .globl _start
_start:
    /* Set gp as crt0 does: the linker may relax accesses near __global_pointer$
     * into gp-relative ones. */
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    PLAT_INIT t0, t1
    j       test_main

    .text
/* sig_print(a0 = value, a1 = NUL-terminated name): prints "name: 0x%08x\n".
 * Preserves every register but a0, a1 and ra (SIG saves those). */
    .globl sig_print
    .type sig_print, @function
sig_print:
    addi    sp, sp, -16
    sw      t0, 0(sp)
    sw      t1, 4(sp)
    sw      t2, 8(sp)
    sw      t3, 12(sp)
1:  lbu     t0, 0(a1)               /* the name */
    beqz    t0, 2f
    PLAT_PUTC t0, t1
    addi    a1, a1, 1
    j       1b
2:  li      t0, ':'
    PLAT_PUTC t0, t1
    li      t0, ' '
    PLAT_PUTC t0, t1
    li      t0, '0'
    PLAT_PUTC t0, t1
    li      t0, 'x'
    PLAT_PUTC t0, t1
    li      t2, 28                  /* eight nibbles, most significant first */
3:  srl     t0, a0, t2
    andi    t0, t0, 0xF
    li      t3, 10
    blt     t0, t3, 4f
    addi    t0, t0, 'a' - '0' - 10
4:  addi    t0, t0, '0'
    PLAT_PUTC t0, t1
    addi    t2, t2, -4
    bgez    t2, 3b
    li      t0, '\n'
    PLAT_PUTC t0, t1
    lw      t0, 0(sp)
    lw      t1, 4(sp)
    lw      t2, 8(sp)
    lw      t3, 12(sp)
    addi    sp, sp, 16
    ret
    .size sig_print, . - sig_print

/* Tests jump here when they are done. */
    .globl test_done
test_done:
    la      a1, done_text
5:  lbu     t0, 0(a1)
    beqz    t0, 6f
    PLAT_PUTC t0, t1
    addi    a1, a1, 1
    j       5b
6:  li      a0, 0
    PLAT_HALT a0, t0
7:  j       7b                      /* halted; never gets here */

    .section .rodata
done_text:
    .asciz  "done\n"
