/* fence and fence.i. A fence orders memory accesses, so single-hart code sees no
 * change; fence.i must make a store to instruction memory visible to the fetch of
 * that instruction (here: code patches itself, then runs the patched code). */
#include "test.h"

    .data
    .align 2
value:
    .word   0

TEST_BEGIN
    la      s0, value
    li      t0, 0x5a5a
    sw      t0, 0(s0)
    fence
    lw      a0, 0(s0)
    SIG     fence_rw, a0            /* 0x5a5a */
    fence   w, r
    fence   iorw, iorw
    fence   r, rw
    SIG     fence_variants, a0      /* 0x5a5a */

    /* Overwrite the instruction at 1f ("li a0, 2") with "li a0, 1". */
    la      t0, 1f
    lw      t1, 2f                  /* the encoding of "addi a0, zero, 1" */
    sw      t1, 0(t0)
    fence.i
1:  li      a0, 2
    SIG     fence_i_patched, a0     /* 1 */
TEST_END

    .section .rodata
    .align 2
2:  addi    a0, zero, 1
