/*
 * counter: a heartbeat the host can watch. fw_counter lives in uncached SRAM, so
 * every increment goes straight to SRAM where a host read sees it (through the
 * cached view it could sit in the D-cache). The core sleeps between increments on
 * a timer, polling mip.MTIP with interrupts left disabled (no handler needed).
 */
#include "niclab/fw/runtime.h"

#define PERIOD_CYCLES 1000u

FW_UNCACHED volatile uint32_t fw_counter;

int main(void)
{
    fw_cache_enable(NICLAB_CACHE_I | NICLAB_CACHE_D);
    fw_set_running();

    fw_csr_set(mie, FW_MIE_MTIE);   /* lets wfi wake on the timer; MIE stays 0 */
    uint64_t deadline = fw_mtime();
    for (;;) {
        fw_counter = fw_counter + 1;
        deadline += PERIOD_CYCLES;
        fw_set_timer_at(deadline);
        while (!(fw_csr_read(mip) & FW_MIP_MTIP))
            fw_wfi();
    }
}
