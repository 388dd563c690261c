/*
 * doorbell: the firmware waits for work by spinning on a word of SRAM that the host
 * rings (writes), as a polling NIC firmware does instead of taking interrupts. Each
 * ring is logged with the mcycle at which the firmware saw it.
 *
 * The wait compiles to a load and a branch back to it; the core's polling
 * fast-forward (cpp/src/core/spin.cpp) charges its passes instead of running them,
 * and the log is the same with it on and off (tests/cpp/nic/test_polling.cpp).
 */
#include "niclab/fw/runtime.h"

#define LOG_ENTRIES 256u

volatile uint32_t fw_doorbell;
volatile uint32_t fw_rings;
uint32_t fw_log[LOG_ENTRIES][2];  /* the value seen, and the mcycle it was seen at */

int main(void)
{
    fw_cache_enable(NICLAB_CACHE_I | NICLAB_CACHE_D);
    fw_set_running();
    uint32_t seen = fw_doorbell;
    for (;;) {
        uint32_t rung;
        while ((rung = fw_doorbell) == seen)
            ;
        seen = rung;
        const uint32_t i = fw_rings % LOG_ENTRIES;
        fw_log[i][0] = rung;
        fw_log[i][1] = (uint32_t)fw_csr_read(mcycle);
        fw_rings = fw_rings + 1;
        fw_wdt_kick();  /* alive: a ring was served (the spin itself stores nothing) */
    }
}
