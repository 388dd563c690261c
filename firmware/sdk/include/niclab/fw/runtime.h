/*
 * niclab firmware runtime: the few C library functions gcc may call on its own
 * (memcpy, memset, memmove, memcmp) plus strlen, and thin helpers over the NIC
 * control block (hw.h). Freestanding: no heap, no stdio, no errno.
 */
#ifndef NICLAB_FW_RUNTIME_H
#define NICLAB_FW_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "niclab/fw/csr.h"
#include "niclab/fw/hw.h"

/* Place a variable in uncached SRAM (shared with the host). crt0 zeroes the region
 * and it is not in the image, so initializers are ignored: assign at run time. */
#define FW_UNCACHED __attribute__((section(".uncached"), aligned(4)))

/* ---- string.c ---- */
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

/* ---- control block registers (word access only) ---- */
static inline volatile uint32_t *fw_ctrl_reg(uint32_t offset)
{
    return (volatile uint32_t *)(uintptr_t)(NICLAB_CTRL_BASE + offset);
}
static inline uint32_t fw_ctrl_read(uint32_t offset) { return *fw_ctrl_reg(offset); }
static inline void fw_ctrl_write(uint32_t offset, uint32_t value) { *fw_ctrl_reg(offset) = value; }

static inline uint32_t fw_node_id(void) { return fw_ctrl_read(NICLAB_CTRL_NODE_ID); }
static inline uint32_t fw_clock_mhz(void) { return fw_ctrl_read(NICLAB_CTRL_CLOCK_MHZ); }
static inline void fw_wdt_kick(void) { fw_ctrl_write(NICLAB_CTRL_WDT_KICK, 1); }
static inline void fw_wfi(void) { __asm__ volatile("wfi" ::: "memory"); }

/* ---- nic.c ---- */
void fw_set_running(void);              /* tell the loader we have started (seed 000 §3.2) */
void fw_cache_enable(unsigned mask);    /* NICLAB_CACHE_I | NICLAB_CACHE_D; 0 turns both off */
_Noreturn void fw_halt(uint32_t code);  /* stop the core cleanly with this exit code */
/* Stop the core with a fault the host reports as "firmware panic: <reason>" at the
 * caller's pc (function and source line): for states the firmware cannot recover
 * from, such as resource exhaustion (seed 000 §4.3.3). `reason` must be in SRAM. */
_Noreturn void fw_panic(const char *reason);
uint64_t fw_mtime(void);                /* free-running cycle counter */
void fw_set_timer_at(uint64_t when);    /* mip.MTIP rises when mtime >= when */
void fw_set_timer(uint32_t cycles);     /* ... `cycles` from now */
void fw_timer_off(void);                /* mtimecmp = max: MTIP stays low */
uint64_t fw_mcycle(void);               /* mcycle/mcycleh */
uint64_t fw_minstret(void);             /* minstret/minstreth */

/* ---- console.c: the debug console is a byte stream in the control block ---- */
void fw_console_putc(char c);
void fw_console_puts(const char *s);            /* no newline added */
void fw_console_put_hex32(uint32_t v);          /* "0x" and 8 lowercase digits */
void fw_console_put_dec(uint32_t v);
void fw_console_put_dec64(uint64_t v);

#endif /* NICLAB_FW_RUNTIME_H */
