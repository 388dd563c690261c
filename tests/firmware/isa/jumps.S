/* jal and jalr: link values (pc + 4, reported relative to labels), jalr clearing
 * bit 0 of the target, jalr with a negative offset, rd = rs1, and rd = x0. */
#include "test.h"

TEST_BEGIN
    /* jal writes pc + 4 into rd. */
    jal     ra, 1f
2:  li      a0, 0x7a1
    SIG     jal_fell_through, a0    /* never printed */
1:  la      t0, 2b
    sub     a0, ra, t0
    SIG     jal_link, a0            /* 0 */

    /* jal with rd = x0 is a plain jump: x0 stays 0. */
    li      a0, 1
    jal     zero, 3f
    li      a0, 0x7a1
3:  SIG     jal_x0, a0              /* 1 */
    SIG     jal_x0_zero, zero       /* 0 */

    /* jalr clears bit 0 of rs1 + imm: jump to an odd address lands on the label. */
    la      t0, 4f
    addi    t0, t0, 1
    li      a0, 0x7a1
    jalr    ra, 0(t0)
    li      a0, 0x7a2              /* skipped */
4:  li      a0, 0x0dd
5:  SIG     jalr_bit0, a0           /* 0xdd */
    la      t1, 4b
    sub     a1, ra, t1
    SIG     jalr_link, a1           /* 0xfffffffc: the link is jalr + 4, one insn before 4f */

    /* odd immediate, even base: the sum is odd, bit 0 is cleared */
    la      t0, 6f
    li      a0, 0x7a0
    jalr    ra, 1(t0)               /* 6f + 1 -> 6f */
    li      a0, 0x7a3
6:  li      a0, 0x66
    SIG     jalr_odd_imm, a0        /* 0x66 */
    la      t0, 7f
    addi    t0, t0, 2
    jalr    ra, -1(t0)              /* 7f + 1: bit 0 cleared -> 7f */
    li      a0, 0x7a4
7:  li      a0, 0x77
    SIG     jalr_neg_imm, a0        /* 0x77 */

    /* jalr with rd == rs1: the target uses the old rs1, then rd gets the link. */
    la      t0, 8f
9:  jalr    t0, 0(t0)
    li      a0, 0x7a5
8:  la      t1, 9b
    sub     a0, t0, t1
    SIG     jalr_rd_eq_rs1, a0      /* 4 */

    /* call and ret through a small function. */
    li      a0, 20
    call    add_22
    SIG     call_ret, a0            /* 42 */
TEST_END

add_22:
    addi    a0, a0, 22
    ret
