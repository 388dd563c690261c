/*
 * niclab embedded core: the part of the NIC hardware interface every embedded-core
 * NIC shares (the SeaStar today, the LANai later): the two SRAM views, the boot block
 * the loader and the firmware meet in, and the core's control block (caches, console,
 * halt, timer, watchdog, host interrupt line, external interrupt sources, panic).
 * Shared by the firmware (C, RV32IM) and the C++ models (nic::EmbeddedNic,
 * nic::ControlBlock). A system's own devices live in its header (hw.h: the SeaStar).
 *
 * The C++ side takes the SRAM layout and the control block's base as configuration
 * (nic::EmbeddedNicConfig); the values here are the SDK's defaults, which link.ld
 * and crt0.S are built for. Boot block words are offsets into the uncached view, so a
 * NIC with another layout finds them at its own uncached base.
 */
#ifndef NICLAB_FW_CORE_HW_H
#define NICLAB_FW_CORE_HW_H

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

/* ---- Boot block: the first 256 bytes of SRAM, seen through the uncached view. ----
 * The loader clears it, writes the image, releases reset, and waits for the firmware
 * to store NICLAB_BOOT_RUNNING into the running flag (seed 000 §3.2). */
#define NICLAB_BOOT_BLOCK_SIZE      NICLAB_U(0x100)
#define NICLAB_BOOT_FLAG_OFFSET     NICLAB_U(0x0)
#define NICLAB_BOOT_EXIT_CODE_OFFSET NICLAB_U(0x4)
#define NICLAB_HEARTBEAT_OFFSET     NICLAB_U(0x8)
#define NICLAB_BOOT_FLAG_ADDR       (NICLAB_SRAM_UNCACHED_BASE + NICLAB_BOOT_FLAG_OFFSET)
#define NICLAB_BOOT_RUNNING         NICLAB_U(0x4E49434C)  /* "NICL" */
#define NICLAB_BOOT_EXIT_CODE_ADDR  (NICLAB_SRAM_UNCACHED_BASE + NICLAB_BOOT_EXIT_CODE_OFFSET)

/* ---- RAS: the heartbeat word the RAS system watches (seed 000 §5.3). The firmware
 * increments it; a NIC whose heartbeat stops for the RAS timeout is marked dead. ---- */
#define NICLAB_HEARTBEAT_ADDR       (NICLAB_SRAM_UNCACHED_BASE + NICLAB_HEARTBEAT_OFFSET)

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
#define NICLAB_CTRL_PANIC_PC        NICLAB_U(0x38)  /* w: the pc a panic is reported at (write first) */
#define NICLAB_CTRL_PANIC           NICLAB_U(0x3C)  /* w: address of a NUL-terminated reason in SRAM:
                                                      stop the core with a "firmware panic" fault */

#define NICLAB_CACHE_I              NICLAB_U(0x1)
#define NICLAB_CACHE_D              NICLAB_U(0x2)

/* ---- External interrupt sources (NICLAB_CTRL_EXT_IRQ_STATUS bits; mip.MEIP while any
 * is pending). The firmware sleeps in wfi and is woken by these. The doorbell is the
 * host's (mailbox.h); a system's devices own the other bits (hw.h). ---- */
#define NICLAB_IRQ_DOORBELL         NICLAB_U(0x01)  /* the host posted a mailbox command */

#endif /* NICLAB_FW_CORE_HW_H */
