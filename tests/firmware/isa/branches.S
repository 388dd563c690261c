/* Conditional branches beq bne blt bge bltu bgeu, taken and not taken, at the
 * signed and unsigned boundaries (equal, -1 vs 1, INT_MIN vs INT_MAX, 0 vs
 * 0xffffffff), forward and backward. Each case shifts its outcome (1 = taken)
 * into a0, so one signature word records a whole row of cases, first case in the
 * most significant of the used bits. */
#include "test.h"

/* a0 = (a0 << 1) | (branch taken) */
.macro CASE op, r1, r2
    slli    a0, a0, 1
    \op     \r1, \r2, 1f
    j       2f
1:  ori     a0, a0, 1
2:
.endm

TEST_BEGIN
    li      s0, 1
    li      s1, -1
    li      s2, 0x80000000          /* INT_MIN */
    li      s3, 0x7fffffff          /* INT_MAX */
    li      s4, 0

    li      a0, 0
    CASE    beq, s0, s0             /* 1 */
    CASE    beq, s0, s1             /* 0 */
    CASE    beq, s4, zero           /* 1 */
    CASE    beq, s2, s3             /* 0 */
    SIG     beq, a0                 /* 0b1010 = 0xa */

    li      a0, 0
    CASE    bne, s0, s0             /* 0 */
    CASE    bne, s0, s1             /* 1 */
    CASE    bne, s4, zero           /* 0 */
    CASE    bne, s2, s3             /* 1 */
    SIG     bne, a0                 /* 0b0101 = 0x5 */

    li      a0, 0
    CASE    blt, s1, s0             /* -1 < 1: 1 */
    CASE    blt, s0, s1             /* 0 */
    CASE    blt, s2, s3             /* MIN < MAX: 1 */
    CASE    blt, s3, s2             /* 0 */
    CASE    blt, s0, s0             /* equal: 0 */
    CASE    blt, s2, s1             /* MIN < -1: 1 */
    SIG     blt, a0                 /* 0b101001 = 0x29 */

    li      a0, 0
    CASE    bge, s1, s0             /* 0 */
    CASE    bge, s0, s1             /* 1 */
    CASE    bge, s2, s3             /* 0 */
    CASE    bge, s3, s2             /* 1 */
    CASE    bge, s0, s0             /* equal: 1 */
    CASE    bge, s4, s2             /* 0 >= MIN: 1 */
    SIG     bge, a0                 /* 0b010111 = 0x17 */

    li      a0, 0
    CASE    bltu, s1, s0            /* 0xffffffff < 1: 0 */
    CASE    bltu, s0, s1            /* 1 */
    CASE    bltu, s2, s3            /* 0x80000000 < 0x7fffffff: 0 */
    CASE    bltu, s3, s2            /* 1 */
    CASE    bltu, s0, s0            /* 0 */
    CASE    bltu, s4, s1            /* 0 < max: 1 */
    SIG     bltu, a0                /* 0b010101 = 0x15 */

    li      a0, 0
    CASE    bgeu, s1, s0            /* 1 */
    CASE    bgeu, s0, s1            /* 0 */
    CASE    bgeu, s2, s3            /* 1 */
    CASE    bgeu, s3, s2            /* 0 */
    CASE    bgeu, s0, s0            /* 1 */
    CASE    bgeu, s4, s1            /* 0 */
    SIG     bgeu, a0                /* 0b101010 = 0x2a */

    /* Backward branches: a counted loop runs exactly 5 times. */
    li      a0, 0
    li      t0, 5
3:  addi    a0, a0, 1
    addi    t0, t0, -1
    bnez    t0, 3b
    SIG     backward_loop, a0       /* 5 */
    /* An unsigned loop down to 0 via bgeu: 3, 2, 1, 0 and stop at 0xffffffff. */
    li      a0, 0
    li      t0, 3
4:  addi    a0, a0, 1
    addi    t0, t0, -1
    bgeu    s3, t0, 4b              /* 0x7fffffff >= t0 until t0 wraps */
    SIG     bgeu_wrap_loop, a0      /* 4 */
TEST_END
