/*
 * The C Portals firmware, generic mode (seed 000 §4, seed 001 §4): boot, then the
 * polling main loop (§4.3). When idle the firmware polls its event sources - TX and
 * RX DMA completions, the mailbox, the TX state machine, new messages - and
 * dispatches each to its handler; handlers run to completion (single threaded).
 * When a whole pass found nothing to do it sleeps in wfi: external interrupts are
 * enabled in mie but not mstatus, so any source wakes the core without a trap.
 */
#include "globals.h"

#include "niclab/fw/csr.h"
#include "niclab/fw/runtime.h"
#include "event.h"
#include "gbn.h"
#include "handlers.h"
#include "niccb.h"
#include "pending.h"
#include "process.h"
#include "source.h"

int main(void)
{
#if PTL_CACHES
    /* §5.1: PTL_CACHES is the cache-control mask (1 = I, 3 = I + D). */
    fw_cache_enable(PTL_CACHES);
#endif
    process_boot();
    pending_boot();
    source_boot();
#if PTL_GBN
    gbn_boot();
#endif
    niccb_boot();
    fw_csr_set(mie, 1u << 11);  /* MEIE: external interrupts wake wfi */
    fw_set_running();
    for (;;) {
        heartbeat();
        /* Clear the interrupt sources first: anything raised while we work keeps
         * MEIP up, so the wfi below falls through instead of sleeping through it. */
        fw_ctrl_write(NICLAB_CTRL_EXT_IRQ_STATUS, fw_ctrl_read(NICLAB_CTRL_EXT_IRQ_STATUS));
        int progress = tx_completions();  /* frees TX FIFO room first */
        progress |= rx_completions();
        progress |= mailbox_poll();
#if PTL_GBN
        if (cached_niccb.tx_waiting)
            progress |= tx_waiting_progress();
#endif
        progress |= tx_progress();
        progress |= rx_events();
#if PTL_GBN
        progress |= gbn_progress(!progress);  /* ACKs wait for a pass with nothing else to do */
#endif
        event_flush();                    /* one host interrupt for the whole pass */
        if (!progress)
            fw_wfi();
    }
}
