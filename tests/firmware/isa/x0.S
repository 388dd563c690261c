/* x0 is hard-wired to zero: writes by every kind of instruction are dropped and
 * reads give 0, and an instruction with rd = x0 still has its other effects. */
#include "test.h"

    .data
    .align 2
word:
    .word   0x12345678

TEST_BEGIN
    li      t0, 0x55
    addi    zero, t0, 1
    lui     zero, 0x12345
    auipc   zero, 0x1
    add     zero, t0, t0
    slli    zero, t0, 3
    mul     zero, t0, t0
    div     zero, t0, t0
    la      t1, word
    lw      zero, 0(t1)
    lb      zero, 0(t1)
    csrrw   zero, mscratch, t0
    jal     zero, 1f
1:  SIG     x0_after_writes, zero   /* 0 */

    add     a0, zero, zero
    SIG     x0_read, a0             /* 0 */
    addi    a0, zero, -1
    SIG     x0_as_source, a0        /* 0xffffffff */

    /* A store of x0 writes zero. */
    sw      zero, 0(t1)
    lw      a0, 0(t1)
    SIG     store_x0, a0            /* 0 */
    /* csrrw with rd = x0 wrote mscratch above. */
    csrr    a0, mscratch
    SIG     csrrw_x0_wrote, a0      /* 0x55 */
TEST_END
