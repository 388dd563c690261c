/*
 * gdb_demo: a small firmware to practise debugging a NIC with gdb (README,
 * "Debugging firmware with gdb"; tests/python/test_gdb.py drives it). A global with
 * a known value to print, a counter the firmware writes on every tick to watch, and
 * a function to break in. Between ticks the core sleeps in wfi on the timer, like
 * counter.c.
 */
#include "niclab/fw/runtime.h"

#define PERIOD_CYCLES 1000u

uint32_t gdb_magic = 0x5ea57a12u;   /* never written: gdb prints this value */
volatile uint32_t gdb_ticks;        /* written once per tick: a watchpoint target */

__attribute__((noinline)) static uint32_t tick(uint32_t n)
{
    gdb_ticks = n + 1; /* gdb-demo: tick writes here */
    return n + 1;
}

int main(void)
{
    fw_cache_enable(NICLAB_CACHE_I | NICLAB_CACHE_D);
    fw_set_running();

    if (gdb_magic != 0x5ea57a12u)   /* never true; the use keeps gdb_magic in the image */
        fw_halt(1);
    fw_csr_set(mie, FW_MIE_MTIE);   /* lets wfi wake on the timer; MIE stays 0 */
    uint64_t deadline = fw_mtime();
    uint32_t n = 0;
    for (;;) {
        n = tick(n);
        deadline += PERIOD_CYCLES;
        fw_set_timer_at(deadline);
        while (!(fw_csr_read(mip) & FW_MIP_MTIP))
            fw_wfi();
    }
}
