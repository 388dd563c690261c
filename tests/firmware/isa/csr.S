/* Zicsr on mscratch (a CSR with no side effects): csrrw csrrs csrrc and the
 * immediate forms csrrwi csrrsi csrrci. Each returns the old value in rd and
 * writes the new one; rd = x0 and rs1 = x0 / uimm = 0 forms are covered. The
 * counters mcycle, mcycleh, minstret, minstreth are read but their values are not
 * reported: they differ from machine to machine. */
#include "test.h"

TEST_BEGIN
    li      t0, 0x12345678
    csrrw   a0, mscratch, t0        /* mscratch was set by nothing: read it, ignore */
    csrrw   a0, mscratch, zero      /* old value = 0x12345678, now 0 */
    SIG     csrrw_old, a0           /* 0x12345678 */
    csrr    a0, mscratch
    SIG     csrrw_new, a0           /* 0 */

    li      t0, 0xf0f0f0f0
    csrw    mscratch, t0            /* csrrw x0: write without reading */
    li      t1, 0x0000ffff
    csrrs   a0, mscratch, t1
    SIG     csrrs_old, a0           /* 0xf0f0f0f0 */
    csrr    a0, mscratch
    SIG     csrrs_new, a0           /* 0xf0f0ffff */
    li      t1, 0xff000000
    csrrc   a0, mscratch, t1
    SIG     csrrc_old, a0           /* 0xf0f0ffff */
    csrr    a0, mscratch
    SIG     csrrc_new, a0           /* 0x00f0ffff */
    csrrs   a0, mscratch, zero      /* rs1 = x0: read only */
    SIG     csrrs_x0, a0            /* 0x00f0ffff */
    csrrc   a0, mscratch, zero
    SIG     csrrc_x0, a0            /* 0x00f0ffff */

    csrrwi  a0, mscratch, 0x15
    SIG     csrrwi_old, a0          /* 0x00f0ffff */
    csrr    a0, mscratch
    SIG     csrrwi_new, a0          /* 0x15 */
    csrrsi  a0, mscratch, 0x0a
    SIG     csrrsi_old, a0          /* 0x15 */
    csrr    a0, mscratch
    SIG     csrrsi_new, a0          /* 0x1f */
    csrrci  a0, mscratch, 0x11
    SIG     csrrci_old, a0          /* 0x1f */
    csrr    a0, mscratch
    SIG     csrrci_new, a0          /* 0x0e */
    csrrsi  a0, mscratch, 0         /* uimm = 0: read only */
    SIG     csrrsi_0, a0            /* 0x0e */
    csrrwi  a0, mscratch, 31        /* largest 5-bit immediate, zero-extended */
    csrr    a0, mscratch
    SIG     csrrwi_31, a0           /* 0x1f */
    csrrw   zero, mscratch, t0      /* rd = x0 still writes */
    csrr    a0, mscratch
    SIG     csrrw_rd_x0, a0         /* 0xf0f0f0f0 */
    li      t2, 0x0badcafe
    csrrw   t2, mscratch, t2        /* rd == rs1: swap */
    csrr    a0, mscratch
    SIG     csrrw_swap, a0          /* 0x0badcafe */
    SIG     csrrw_swap_old, t2      /* 0xf0f0f0f0 */

    /* Counters: reading them must not trap. */
    csrr    t0, mcycle
    csrr    t1, mcycleh
    csrr    t2, minstret
    csrr    t3, minstreth
    li      a0, 1
    SIG     counters_readable, a0   /* 1 */
TEST_END
