/*
 * The platform layer of the ISA tests: the same test source runs on the niclab NIC
 * core and on QEMU's virt board (the independent oracle), and differs only in how
 * a byte reaches the console and how the program stops. Select with
 * -DISA_PLATFORM_NICLAB or -DISA_PLATFORM_QEMU. The macros clobber only their
 * \tmp arguments (and PLAT_HALT its \reg).
 */
#ifndef ISA_PLATFORM_H
#define ISA_PLATFORM_H

#if defined(ISA_PLATFORM_NICLAB)
#include "niclab/fw/hw.h"

/* Tell the loader we started (seed 000 §3.2), or it would report a boot timeout. */
.macro PLAT_INIT tmp, tmp2
    li      \tmp, NICLAB_BOOT_FLAG_ADDR
    li      \tmp2, NICLAB_BOOT_RUNNING
    sw      \tmp2, 0(\tmp)
.endm
/* Console: word store to the control block; its low byte is appended. */
.macro PLAT_PUTC reg, tmp
    li      \tmp, NICLAB_CTRL_BASE + NICLAB_CTRL_CONSOLE
    sw      \reg, 0(\tmp)
.endm
/* Halt register: the stored value is the exit code. */
.macro PLAT_HALT reg, tmp
    li      \tmp, NICLAB_CTRL_BASE + NICLAB_CTRL_HALT
    sw      \reg, 0(\tmp)
.endm

#elif defined(ISA_PLATFORM_QEMU)
#define QEMU_UART_THR   0x10000000  /* 16550 transmit holding register (virt) */
#define QEMU_TEST_DEV   0x00100000  /* sifive_test: 0x5555 pass, code<<16|0x3333 fail */

.macro PLAT_INIT tmp, tmp2
.endm
/* QEMU's 16550 is always ready to send, so no LSR polling is needed. */
.macro PLAT_PUTC reg, tmp
    li      \tmp, QEMU_UART_THR
    sb      \reg, 0(\tmp)
.endm
/* Exit code 0 becomes 0x5555 (QEMU exits 0), anything else (code << 16) | 0x3333.
 * Clobbers \reg as well: it is the last thing a test does. */
.macro PLAT_HALT reg, tmp
    bnez    \reg, 1f
    li      \tmp, 0x5555
    j       2f
1:  slli    \tmp, \reg, 16
    li      \reg, 0x3333
    or      \tmp, \tmp, \reg
2:  li      \reg, QEMU_TEST_DEV
    sw      \tmp, 0(\reg)
.endm

#else
#error "define ISA_PLATFORM_NICLAB or ISA_PLATFORM_QEMU"
#endif

#endif /* ISA_PLATFORM_H */
