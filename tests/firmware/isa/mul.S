/* M extension multiplies: mul (low 32 bits) and mulh (signed x signed), mulhsu
 * (signed rs1 x unsigned rs2), mulhu (unsigned x unsigned) high 32 bits, with
 * negative, mixed-sign and extreme operands. */
#include "test.h"

TEST_BEGIN
    li      s0, 7
    li      s1, -3
    li      s2, -1
    li      s3, 0x80000000          /* INT_MIN */
    li      s4, 0x7fffffff          /* INT_MAX */
    li      s5, 0x12345678
    li      s6, 0x9abcdef0

    mul     a0, s0, s1
    SIG     mul_7_m3, a0            /* -21 = 0xffffffeb */
    mul     a0, s5, s6
    SIG     mul_big, a0             /* low of 0x0b00ea4e242d2080 = 0x242d2080 */
    mul     a0, s3, s2
    SIG     mul_min_m1, a0          /* 0x80000000 */
    mul     a0, s4, s4
    SIG     mul_max_max, a0         /* 0x00000001 */

    mulh    a0, s0, s1
    SIG     mulh_7_m3, a0           /* 0xffffffff: -21 sign-extends */
    mulh    a0, s2, s2
    SIG     mulh_m1_m1, a0          /* 0: (-1)(-1) = 1 */
    mulh    a0, s3, s3
    SIG     mulh_min_min, a0        /* 2^62 -> 0x40000000 */
    mulh    a0, s3, s2
    SIG     mulh_min_m1, a0         /* 2^31 -> 0x00000000 */
    mulh    a0, s4, s4
    SIG     mulh_max_max, a0        /* 0x3fffffff */
    mulh    a0, s5, s6
    SIG     mulh_mixed, a0          /* 0x12345678 * -0x65432110 -> 0xf8cc93d6 */

    mulhsu  a0, s2, s2
    SIG     mulhsu_m1_umax, a0      /* -1 * 0xffffffff -> 0xffffffff */
    mulhsu  a0, s3, s2
    SIG     mulhsu_min_umax, a0     /* -2^31 * (2^32-1) -> 0x80000000 */
    mulhsu  a0, s4, s2
    SIG     mulhsu_max_umax, a0     /* 0x7ffffffe */
    mulhsu  a0, s6, s5
    SIG     mulhsu_neg_pos, a0      /* -0x65432110 * 0x12345678 -> 0xf8cc93d6 */
    mulhsu  a0, s5, s6
    SIG     mulhsu_pos_big, a0      /* 0x12345678 * 0x9abcdef0 -> 0x0b00ea4e */
    mulhsu  a0, s1, s0
    SIG     mulhsu_m3_7, a0         /* 0xffffffff */

    mulhu   a0, s2, s2
    SIG     mulhu_umax_umax, a0     /* 0xfffffffe */
    mulhu   a0, s3, s3
    SIG     mulhu_2p31_2p31, a0     /* 0x40000000 */
    mulhu   a0, s5, s6
    SIG     mulhu_big, a0           /* 0x0b00ea4e */
    mulhu   a0, s0, s1
    SIG     mulhu_7_big, a0         /* 7 * 0xfffffffd -> 0x00000006 */

    mul     a0, s0, zero
    SIG     mul_zero, a0            /* 0 */
    mul     s0, s0, s0              /* rd == rs1 == rs2 */
    SIG     mul_self, s0            /* 49 */
TEST_END
