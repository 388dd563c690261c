/* Loads lb lh lw lbu lhu (sign and zero extension at every byte/halfword offset)
 * and stores sb sh sw (only the addressed bytes change), with positive and
 * negative offsets. Memory is little-endian. */
#include "test.h"

    .data
    .align 4
pattern:
    .word   0x8081f0ff              /* bytes ff f0 81 80: every byte has bit 7 set */
    .word   0x7f017e02              /* bytes 02 7e 01 7f: none has */
scratch:
    .word   0, 0

TEST_BEGIN
    la      s0, pattern
    lb      a0, 0(s0)
    SIG     lb_0, a0                /* 0xffffffff */
    lb      a0, 1(s0)
    SIG     lb_1, a0                /* 0xfffffff0 */
    lb      a0, 2(s0)
    SIG     lb_2, a0                /* 0xffffff81 */
    lb      a0, 3(s0)
    SIG     lb_3, a0                /* 0xffffff80 */
    lb      a0, 7(s0)
    SIG     lb_7, a0                /* 0x0000007f */
    lbu     a0, 0(s0)
    SIG     lbu_0, a0               /* 0x000000ff */
    lbu     a0, 3(s0)
    SIG     lbu_3, a0               /* 0x00000080 */
    lbu     a0, 5(s0)
    SIG     lbu_5, a0               /* 0x0000007e */
    lh      a0, 0(s0)
    SIG     lh_0, a0                /* 0xfffff0ff */
    lh      a0, 2(s0)
    SIG     lh_2, a0                /* 0xffff8081 */
    lh      a0, 4(s0)
    SIG     lh_4, a0                /* 0x00007e02 */
    lhu     a0, 0(s0)
    SIG     lhu_0, a0               /* 0x0000f0ff */
    lhu     a0, 2(s0)
    SIG     lhu_2, a0               /* 0x00008081 */
    lw      a0, 0(s0)
    SIG     lw_0, a0                /* 0x8081f0ff */
    lw      a0, 4(s0)
    SIG     lw_4, a0                /* 0x7f017e02 */
    addi    s1, s0, 8
    lw      a0, -4(s1)
    SIG     lw_neg_offset, a0       /* 0x7f017e02 */
    lb      a0, -5(s1)
    SIG     lb_neg_offset, a0       /* 0xffffff80 */

    la      s2, scratch
    li      t0, 0x11223344
    sw      t0, 0(s2)
    li      t1, 0xaabbccdd
    sb      t1, 1(s2)               /* only byte 1 changes */
    lw      a0, 0(s2)
    SIG     sb_1, a0                /* 0x1122dd44 */
    sb      t1, 3(s2)
    lw      a0, 0(s2)
    SIG     sb_3, a0                /* 0xdd22dd44 */
    sw      t0, 0(s2)
    sh      t1, 2(s2)               /* only bytes 2-3 change */
    lw      a0, 0(s2)
    SIG     sh_2, a0                /* 0xccdd3344 */
    sh      t1, 0(s2)
    lw      a0, 0(s2)
    SIG     sh_0, a0                /* 0xccddccdd */
    addi    s3, s2, 8
    sw      t1, -4(s3)
    lw      a0, 4(s2)
    SIG     sw_neg_offset, a0       /* 0xaabbccdd */
    lh      a0, 6(s2)
    SIG     lh_after_sw, a0         /* 0xffffaabb */
    lbu     a0, -1(s3)
    SIG     lbu_neg_offset, a0      /* 0x000000aa */

    /* A load into the register that held its base address. */
    la      a0, pattern
    lw      a0, 4(a0)
    SIG     lw_rd_eq_base, a0       /* 0x7f017e02 */
TEST_END
