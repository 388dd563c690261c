/* M extension divides: div divu rem remu. Division rounds toward zero and the
 * remainder takes the dividend's sign. The two cases that do not trap in RISC-V
 * (spec, "Division by zero and overflow"): x / 0 gives -1 (all ones) and x % 0 gives
 * x; INT_MIN / -1 gives INT_MIN and INT_MIN % -1 gives 0. */
#include "test.h"

TEST_BEGIN
    li      s0, 20
    li      s1, 6
    li      s2, -20
    li      s3, -6
    li      s4, 0x80000000          /* INT_MIN */
    li      s5, -1

    div     a0, s0, s1
    SIG     div_20_6, a0            /* 3 */
    div     a0, s2, s1
    SIG     div_m20_6, a0           /* -3 = 0xfffffffd: toward zero */
    div     a0, s0, s3
    SIG     div_20_m6, a0           /* 0xfffffffd */
    div     a0, s2, s3
    SIG     div_m20_m6, a0          /* 3 */
    rem     a0, s0, s1
    SIG     rem_20_6, a0            /* 2 */
    rem     a0, s2, s1
    SIG     rem_m20_6, a0           /* -2 = 0xfffffffe: sign of dividend */
    rem     a0, s0, s3
    SIG     rem_20_m6, a0           /* 2 */
    rem     a0, s2, s3
    SIG     rem_m20_m6, a0          /* 0xfffffffe */

    divu    a0, s2, s1
    SIG     divu_big_6, a0          /* 0xffffffec / 6 = 0x2aaaaaa7 */
    remu    a0, s2, s1
    SIG     remu_big_6, a0          /* 0xffffffec % 6 = 2 */
    divu    a0, s0, s3
    SIG     divu_20_big, a0         /* 0 */
    remu    a0, s0, s3
    SIG     remu_20_big, a0         /* 20 */

    div     a0, s0, zero
    SIG     div_by_zero, a0         /* 0xffffffff */
    div     a0, s2, zero
    SIG     div_neg_by_zero, a0     /* 0xffffffff */
    divu    a0, s0, zero
    SIG     divu_by_zero, a0        /* 0xffffffff */
    rem     a0, s2, zero
    SIG     rem_by_zero, a0         /* the dividend: 0xffffffec */
    remu    a0, s0, zero
    SIG     remu_by_zero, a0        /* 20 */
    div     a0, zero, zero
    SIG     div_0_by_0, a0          /* 0xffffffff */

    div     a0, s4, s5
    SIG     div_overflow, a0        /* INT_MIN = 0x80000000 */
    rem     a0, s4, s5
    SIG     rem_overflow, a0        /* 0 */
    divu    a0, s4, s5
    SIG     divu_2p31_umax, a0      /* 0 */
    remu    a0, s4, s5
    SIG     remu_2p31_umax, a0      /* 0x80000000 */
    div     a0, s4, s1
    SIG     div_min_6, a0           /* -357913941 = 0xeaaaaaab */
    rem     a0, s4, s1
    SIG     rem_min_6, a0           /* -2 = 0xfffffffe */
TEST_END
