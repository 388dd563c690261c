/*
 * doorbell: the firmware waits for work by spinning, as a polling NIC firmware does
 * instead of taking interrupts: first on a word of SRAM the host writes (fw_doorbell),
 * then on a device register, the control block's external interrupt status, which the
 * host's doorbell raises (interrupts stay masked, so only the register shows it).
 * Each ring is logged with the mcycle at which the firmware saw it.
 *
 * Each wait compiles to a load and a branch back to it; the core's polling
 * fast-forward (cpp/src/core/spin.cpp) charges its passes instead of running them,
 * and the log is the same with it on and off (tests/cpp/nic/test_polling.cpp).
 */
#include "niclab/fw/runtime.h"

#define LOG_ENTRIES 128u

volatile uint32_t fw_doorbell;
volatile uint32_t fw_rings;
uint32_t fw_log[LOG_ENTRIES][2];  /* what was seen, and the mcycle it was seen at */

static void log_ring(uint32_t seen)
{
    const uint32_t i = fw_rings % LOG_ENTRIES;
    fw_log[i][0] = seen;
    fw_log[i][1] = (uint32_t)fw_csr_read(mcycle);
    fw_rings = fw_rings + 1;
    fw_wdt_kick();  /* alive: a ring was served (the spin itself stores nothing) */
}

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
        log_ring(rung);

        uint32_t status;
        while (!(status = fw_ctrl_read(NICLAB_CTRL_EXT_IRQ_STATUS)))
            ;
        fw_ctrl_write(NICLAB_CTRL_EXT_IRQ_STATUS, status);  /* write 1 to clear */
        log_ring(status);
    }
}
