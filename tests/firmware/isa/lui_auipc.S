/* lui and auipc, including immediates with the top bits set. auipc results are
 * reported relative to the auipc's own address, so both platforms agree. */
#include "test.h"

TEST_BEGIN
    lui     a0, 0x12345
    SIG     lui_12345, a0               /* 0x12345000 */
    lui     a0, 0xfffff
    SIG     lui_fffff, a0               /* 0xfffff000: top bits set */
    lui     a0, 0x80000
    SIG     lui_80000, a0               /* 0x80000000 */
    lui     a0, 0
    SIG     lui_zero, a0                /* low 12 bits cleared too */
    li      a0, 0x7ff
    lui     a0, 1                       /* lui replaces the whole register */
    SIG     lui_replaces, a0            /* 0x00001000 */

1:  auipc   a0, 0
    la      t0, 1b
    sub     a0, a0, t0
    SIG     auipc_0, a0                 /* 0 */
2:  auipc   a0, 0x12345
    la      t0, 2b
    sub     a0, a0, t0
    SIG     auipc_12345, a0             /* 0x12345000 */
3:  auipc   a0, 0xfffff
    la      t0, 3b
    sub     a0, a0, t0
    SIG     auipc_fffff, a0             /* 0xfffff000: pc - 4096 */
4:  auipc   a0, 0x80000
    la      t0, 4b
    sub     a0, a0, t0
    SIG     auipc_80000, a0             /* 0x80000000: wraps around */
TEST_END
