/*
 * heartbeat: beats the RAS heartbeat (seed 000 §5.3) every 10 us from a timer, sleeping
 * in wfi between beats, for `beats` beats (the host may poke it; 0 = forever), then
 * hangs: it stays asleep with the timer off, alive to the core but dead to RAS.
 */
#include "niclab/fw/csr.h"
#include "niclab/fw/runtime.h"

volatile uint32_t beats = 20;

int main(void)
{
    fw_csr_set(mie, 1u << 7);  /* MTIE: the timer wakes wfi (no trap: mstatus.MIE stays 0) */
    fw_set_running();
    uint32_t period = 10 * fw_clock_mhz();
    for (uint32_t n = 1; beats == 0 || n <= beats; n++) {
        *(volatile uint32_t *)NICLAB_HEARTBEAT_ADDR = n;
        fw_set_timer(period);
        fw_wfi();
    }
    fw_timer_off();
    for (;;)
        fw_wfi();  /* hung: no more beats */
}
