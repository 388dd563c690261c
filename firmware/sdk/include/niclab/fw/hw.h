/*
 * niclab NIC hardware interface: the one header shared by the firmware (C, RV32IM)
 * and the C++ device models. Every address and register layout the firmware can
 * touch is defined here, so the two sides cannot drift apart.
 *
 * Address map of the NIC core (32-bit, little-endian):
 *
 *   0x0000_0000 - 0xEFFF_FFFF  host memory: 15 windows x 256 MB through the host bridge
 *                              (seed 000 §2). Only windows the host driver opened are
 *                              reachable; anything else is an access fault.
 *   0xF000_0000 - 0xF000_0FFF  NIC control block registers (cache control, timer,
 *                              watchdog, console, host interrupt, halt)
 *   0xF001_0000 - 0xF001_00FF  host bridge window registers (read-only to firmware)
 *   0xFFF4_0000 - 0xFFF9_FFFF  SRAM, uncached view (shared with the host)
 *   0xFFFA_0000 - 0xFFFF_FFFF  SRAM, cached view: the top 384 KB of the address
 *                              space (seed 000 §2, §3.2)
 *
 * Both SRAM views reach the same 384 KB: SRAM offset o is at UNCACHED_BASE + o and at
 * CACHED_BASE + o. Whether an access may hit the caches depends on the view it uses.
 */
#ifndef NICLAB_FW_HW_H
#define NICLAB_FW_HW_H

/* Constants carry a `u` suffix in C and C++ (unsigned arithmetic, no sign surprises
 * at 0x8000_0000 and above) and none in assembly, so crt0.S and the ISA tests can
 * include this header too (GNU as has no integer suffixes). */
#ifdef __ASSEMBLER__
#define NICLAB_U(x) x
#else
#define NICLAB_U(x) x##u
#endif

#define NICLAB_SRAM_SIZE            NICLAB_U(0x00060000) /* 384 KB, seed 000 §2 */
#define NICLAB_SRAM_CACHED_BASE     NICLAB_U(0xFFFA0000)
#define NICLAB_SRAM_UNCACHED_BASE   NICLAB_U(0xFFF40000)

#define NICLAB_HOST_WINDOW_COUNT    15u          /* seed 000 §2 */
#define NICLAB_HOST_WINDOW_SIZE     NICLAB_U(0x10000000)  /* 256 MB each, seed 000 §2 */
#define NICLAB_HOST_WINDOW_ADDR(i)  ((i) * NICLAB_HOST_WINDOW_SIZE)

/* ---- Boot block: the first 256 bytes of SRAM, seen through the uncached view. ----
 * The loader clears it, writes the image, releases reset, and waits for the firmware
 * to store NICLAB_BOOT_RUNNING into the running flag (seed 000 §3.2). */
#define NICLAB_BOOT_BLOCK_SIZE      NICLAB_U(0x100)
#define NICLAB_BOOT_FLAG_ADDR       (NICLAB_SRAM_UNCACHED_BASE + NICLAB_U(0x0))
#define NICLAB_BOOT_RUNNING         NICLAB_U(0x4E49434C)  /* "NICL" */
#define NICLAB_BOOT_EXIT_CODE_ADDR  (NICLAB_SRAM_UNCACHED_BASE + NICLAB_U(0x4))

/* ---- NIC control block registers (32-bit, word access only) ---- */
#define NICLAB_CTRL_BASE            NICLAB_U(0xF0000000)
#define NICLAB_CTRL_SIZE            NICLAB_U(0x1000)
#define NICLAB_CTRL_CACHE           NICLAB_U(0x00)  /* r/w: bit0 I-cache enable, bit1 D-cache enable */
#define NICLAB_CTRL_CACHE_FLUSH     NICLAB_U(0x04)  /* w: 1 invalidate I, 2 write back+invalidate D */
#define NICLAB_CTRL_CONSOLE         NICLAB_U(0x08)  /* w: low byte appended to the debug console */
#define NICLAB_CTRL_HALT            NICLAB_U(0x0C)  /* w: stop the core cleanly with this exit code */
#define NICLAB_CTRL_MTIME_LO        NICLAB_U(0x10)  /* r: free-running core cycle counter */
#define NICLAB_CTRL_MTIME_HI        NICLAB_U(0x14)
#define NICLAB_CTRL_MTIMECMP_LO     NICLAB_U(0x18)  /* r/w: timer interrupt (mip.MTIP) when mtime >= mtimecmp */
#define NICLAB_CTRL_MTIMECMP_HI     NICLAB_U(0x1C)
#define NICLAB_CTRL_WDT_KICK        NICLAB_U(0x20)  /* w: any value restarts the watchdog period */
#define NICLAB_CTRL_HOST_IRQ        NICLAB_U(0x24)  /* w: raise the interrupt line to the host */
#define NICLAB_CTRL_NODE_ID         NICLAB_U(0x28)  /* r: this NIC's node id */
#define NICLAB_CTRL_CLOCK_MHZ       NICLAB_U(0x2C)  /* r: core clock in MHz */
#define NICLAB_CTRL_EXT_IRQ_STATUS  NICLAB_U(0x30)  /* r: pending external interrupt sources; w1c */
#define NICLAB_CTRL_EXT_IRQ_RAISE   NICLAB_U(0x34)  /* w: raise external interrupt sources (host doorbell) */

#define NICLAB_CACHE_I              NICLAB_U(0x1)
#define NICLAB_CACHE_D              NICLAB_U(0x2)

/* ---- Host bridge window registers: 16 bytes per window, read-only to firmware.
 * The host driver opens a window; the firmware may read where it points. ---- */
#define NICLAB_HB_BASE              NICLAB_U(0xF0010000)
#define NICLAB_HB_WINDOW_STRIDE     NICLAB_U(0x10)
#define NICLAB_HB_HOST_ADDR_LO      NICLAB_U(0x0)   /* host physical address the window starts at */
#define NICLAB_HB_HOST_ADDR_HI      NICLAB_U(0x4)
#define NICLAB_HB_LIMIT             NICLAB_U(0x8)   /* bytes reachable from the window's base */
#define NICLAB_HB_FLAGS             NICLAB_U(0xC)   /* bit0 open, bit1 writable */
#define NICLAB_HB_OPEN              NICLAB_U(0x1)
#define NICLAB_HB_WRITABLE          NICLAB_U(0x2)

#endif /* NICLAB_FW_HW_H */
