/* Register-register arithmetic and logic: add sub sll slt sltu xor srl sra or and.
 * Shifts use only the low 5 bits of rs2, so amounts 32, 33 and 0xffffffe1 act as
 * 0, 1 and 1. */
#include "test.h"

TEST_BEGIN
    li      t0, 0x7fffffff
    li      t1, 1
    li      t2, -1
    li      t3, 0x80000000
    add     a0, t0, t1
    SIG     add_overflow, a0            /* 0x80000000 */
    add     a0, t2, t2
    SIG     add_neg, a0                 /* 0xfffffffe */
    add     a0, t2, t1
    SIG     add_carry_out, a0           /* 0: carry discarded */
    sub     a0, t3, t1
    SIG     sub_underflow, a0           /* 0x7fffffff */
    sub     a0, zero, t1
    SIG     sub_negate, a0              /* 0xffffffff */
    sub     a0, t1, t2
    SIG     sub_neg_operand, a0         /* 2 */

    li      t4, 0x87654321
    li      s0, 0
    li      s1, 31
    li      s2, 32
    li      s3, 33
    li      s4, 0xffffffe1              /* low 5 bits = 1 */
    sll     a0, t4, s0
    SIG     sll_0, a0                   /* 0x87654321 */
    sll     a0, t4, s1
    SIG     sll_31, a0                  /* 0x80000000 */
    sll     a0, t4, s2
    SIG     sll_32, a0                  /* 0x87654321 */
    sll     a0, t4, s3
    SIG     sll_33, a0                  /* 0x0eca8642 */
    sll     a0, t4, s4
    SIG     sll_high_bits, a0           /* 0x0eca8642 */
    srl     a0, t4, s0
    SIG     srl_0, a0                   /* 0x87654321 */
    srl     a0, t4, s1
    SIG     srl_31, a0                  /* 1 */
    srl     a0, t4, s2
    SIG     srl_32, a0                  /* 0x87654321 */
    srl     a0, t4, s4
    SIG     srl_high_bits, a0           /* 0x43b2a190 */
    sra     a0, t4, s0
    SIG     sra_0, a0                   /* 0x87654321 */
    sra     a0, t4, s1
    SIG     sra_31, a0                  /* 0xffffffff */
    sra     a0, t4, s3
    SIG     sra_33, a0                  /* 0xc3b2a190 */
    sra     a0, t4, s4
    SIG     sra_high_bits, a0           /* 0xc3b2a190 */
    li      t5, 0x40000000
    sra     a0, t5, s1
    SIG     sra_pos_31, a0              /* 0 */

    slt     a0, t2, t1
    SIG     slt_neg_pos, a0             /* 1 */
    slt     a0, t1, t2
    SIG     slt_pos_neg, a0             /* 0 */
    slt     a0, t3, t0
    SIG     slt_min_max, a0             /* 1 */
    slt     a0, t1, t1
    SIG     slt_equal, a0               /* 0 */
    sltu    a0, t2, t1
    SIG     sltu_big_small, a0          /* 0 */
    sltu    a0, t1, t2
    SIG     sltu_small_big, a0          /* 1 */
    sltu    a0, zero, t1
    SIG     sltu_snez, a0               /* 1 */
    sltu    a0, zero, zero
    SIG     sltu_snez_0, a0             /* 0 */

    li      t5, 0xff00ff00
    li      t6, 0x0ff00ff0
    xor     a0, t5, t6
    SIG     xor, a0                     /* 0xf0f0f0f0 */
    or      a0, t5, t6
    SIG     or, a0                      /* 0xfff0fff0 */
    and     a0, t5, t6
    SIG     and, a0                     /* 0x0f000f00 */
    xor     a0, t5, t5
    SIG     xor_self, a0                /* 0 */
TEST_END
