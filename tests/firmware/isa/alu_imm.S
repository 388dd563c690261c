/* Register-immediate arithmetic and logic: addi slti sltiu xori ori andi and the
 * immediate shifts slli srli srai. Immediates are 12-bit and sign-extended,
 * including for sltiu and the logic ops. */
#include "test.h"

TEST_BEGIN
    li      t0, 5
    addi    a0, t0, 7
    SIG     addi_pos, a0                /* 12 */
    addi    a0, t0, -7
    SIG     addi_neg, a0                /* -2 = 0xfffffffe */
    li      t1, 0x7fffffff
    addi    a0, t1, 1
    SIG     addi_overflow, a0           /* wraps to 0x80000000 */
    addi    a0, zero, 2047
    SIG     addi_max_imm, a0            /* 0x7ff */
    addi    a0, zero, -2048
    SIG     addi_min_imm, a0            /* 0xfffff800 */

    li      t1, -1
    slti    a0, t1, 0
    SIG     slti_neg_lt_0, a0           /* 1 */
    slti    a0, t0, 5
    SIG     slti_equal, a0              /* 0 */
    slti    a0, t0, -2048
    SIG     slti_vs_min, a0             /* 0 */
    li      t2, 0x80000000
    slti    a0, t2, -2048
    SIG     slti_intmin, a0             /* 1 */
    sltiu   a0, t0, -1
    SIG     sltiu_vs_all_ones, a0       /* 1: -1 is 0xffffffff unsigned */
    sltiu   a0, t1, 5
    SIG     sltiu_neg, a0               /* 0: 0xffffffff is large */
    sltiu   a0, zero, 1
    SIG     sltiu_seqz_0, a0            /* 1 */
    sltiu   a0, t0, 1
    SIG     sltiu_seqz_5, a0            /* 0 */

    li      t3, 0x12345678
    xori    a0, t3, -1
    SIG     xori_not, a0                /* 0xedcba987 */
    xori    a0, t3, 0x7ff
    SIG     xori_7ff, a0                /* 0x12345187 */
    ori     a0, t3, -2048
    SIG     ori_neg, a0                 /* 0xfffffe78 */
    ori     a0, zero, 0x555
    SIG     ori_555, a0                 /* 0x555 */
    andi    a0, t3, -16
    SIG     andi_neg, a0                /* 0x12345670 */
    andi    a0, t3, 0x0ff
    SIG     andi_ff, a0                 /* 0x78 */

    li      t4, 0x80000001
    slli    a0, t4, 0
    SIG     slli_0, a0                  /* 0x80000001 */
    slli    a0, t4, 1
    SIG     slli_1, a0                  /* 0x00000002 */
    slli    a0, t4, 31
    SIG     slli_31, a0                 /* 0x80000000 */
    srli    a0, t4, 0
    SIG     srli_0, a0                  /* 0x80000001 */
    srli    a0, t4, 1
    SIG     srli_1, a0                  /* 0x40000000 */
    srli    a0, t4, 31
    SIG     srli_31, a0                 /* 0x00000001 */
    srai    a0, t4, 0
    SIG     srai_0, a0                  /* 0x80000001 */
    srai    a0, t4, 1
    SIG     srai_1, a0                  /* 0xc0000000 */
    srai    a0, t4, 31
    SIG     srai_31, a0                 /* 0xffffffff */
    li      t5, 0x7ffffff0
    srai    a0, t5, 4
    SIG     srai_pos, a0                /* 0x07ffffff: positive stays positive */
TEST_END
