/*
 * niclab firmware start-up. The loader writes the image (text, data) into SRAM and
 * releases the core at _start; .bss and .uncached are not in the image, so they are
 * cleared here (the loader also zero-fills .bss, but a firmware restarted in place
 * must not depend on that). Caches start off, as on the PPC440 out of reset; main
 * decides whether to turn them on (niclab/fw/runtime.h). No trap handler is
 * installed: mtvec stays 0, so a fault before main installs one is reported by the
 * simulator as a firmware fault with the PC of the offending instruction.
 */
#include "niclab/fw/hw.h"

    .section .text.start, "ax"
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax         /* gp is not set yet: "la gp" must not become gp-relative */
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top

    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:
    la      t0, __uncached_start
    la      t1, __uncached_end
3:  bgeu    t0, t1, 4f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       3b
4:
#if defined(NICLAB_TRACE) && NICLAB_TRACE
    li      tp, 0           /* trace record count (niclab/fw/trace.h) */
#endif
    call    main
    /* main returned: report its value as the exit code and halt the core. */
    li      t0, NICLAB_CTRL_BASE + NICLAB_CTRL_HALT
    sw      a0, 0(t0)
5:  wfi
    j       5b
    .size _start, . - _start
