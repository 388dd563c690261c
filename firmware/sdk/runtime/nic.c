/*
 * Helpers over the NIC control block (niclab/fw/hw.h): boot handshake, caches,
 * halt, and the 64-bit timer registers the 32-bit core can only read in halves.
 */
#include "niclab/fw/runtime.h"

void fw_set_running(void)
{
    *(volatile uint32_t *)(uintptr_t)NICLAB_BOOT_FLAG_ADDR = NICLAB_BOOT_RUNNING;
}

void fw_cache_enable(unsigned mask)
{
    fw_ctrl_write(NICLAB_CTRL_CACHE, mask & (NICLAB_CACHE_I | NICLAB_CACHE_D));
}

void fw_halt(uint32_t code)
{
    fw_ctrl_write(NICLAB_CTRL_HALT, code);
    for (;;)            /* the core has stopped; this only keeps the compiler honest */
        fw_wfi();
}

__attribute__((noinline)) void fw_panic(const char *reason)
{
    /* The call instruction is 4 bytes before the return address. */
    fw_ctrl_write(NICLAB_CTRL_PANIC_PC, (uint32_t)(uintptr_t)__builtin_return_address(0) - 4u);
    fw_ctrl_write(NICLAB_CTRL_PANIC, (uint32_t)(uintptr_t)reason);
    for (;;)
        fw_wfi();
}

/* The low half may wrap between the two reads: read hi, lo, hi and retry if hi
 * moved, so we never pair a new low half with an old high half. */
uint64_t fw_mtime(void)
{
    uint32_t hi, lo;
    do {
        hi = fw_ctrl_read(NICLAB_CTRL_MTIME_HI);
        lo = fw_ctrl_read(NICLAB_CTRL_MTIME_LO);
    } while (hi != fw_ctrl_read(NICLAB_CTRL_MTIME_HI));
    return ((uint64_t)hi << 32) | lo;
}

/* Writing the halves in the order hi=max, lo, hi never leaves mtimecmp briefly
 * below both the old and new values, which would raise a spurious interrupt. */
void fw_set_timer_at(uint64_t when)
{
    fw_ctrl_write(NICLAB_CTRL_MTIMECMP_HI, 0xFFFFFFFFu);
    fw_ctrl_write(NICLAB_CTRL_MTIMECMP_LO, (uint32_t)when);
    fw_ctrl_write(NICLAB_CTRL_MTIMECMP_HI, (uint32_t)(when >> 32));
}

void fw_set_timer(uint32_t cycles) { fw_set_timer_at(fw_mtime() + cycles); }

void fw_timer_off(void) { fw_set_timer_at(UINT64_MAX); }

uint64_t fw_mcycle(void)
{
    uint32_t hi, lo;
    do {
        hi = fw_csr_read(mcycleh);
        lo = fw_csr_read(mcycle);
    } while (hi != fw_csr_read(mcycleh));
    return ((uint64_t)hi << 32) | lo;
}

uint64_t fw_minstret(void)
{
    uint32_t hi, lo;
    do {
        hi = fw_csr_read(minstreth);
        lo = fw_csr_read(minstret);
    } while (hi != fw_csr_read(minstreth));
    return ((uint64_t)hi << 32) | lo;
}
