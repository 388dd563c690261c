/*
 * GRIM's NI firmware for the Myrinet LANai (seed 004 Ch. IV), in C on the modelled
 * LANai core. Boot: announce the firmware, wait for the driver's configuration, set
 * up the receive ring in the SRAM the driver left free. Then the polling loop of
 * L1338: control messages first (they must never wait behind data, §4.2.3), then a
 * pending RM-RV reply (it is its request's ACK), then rolled-back messages, then arrivals, then new messages from the logical channels.
 * A pass that found nothing sleeps in wfi (external interrupts and the timer are
 * enabled in mie but not mstatus, so they wake the core without a trap).
 */
#include "grim.h"

#include "niclab/fw/csr.h"

__attribute__((section(".uncached"))) volatile struct grim_shared grim_shared;
uint32_t sends_pending;

#if GRIM_DATAPATH != GRIM_DP_STORE_FORWARD
/* The data path, for the host library (grim_fw.h); read once at boot so the linker
 * keeps it. */
const uint32_t grim_datapath = GRIM_DATAPATH;
#endif

static void set_running(void)
{
    /* The LANai's SRAM sits at its own addresses (lanai.h), so the boot flag is not
     * the SDK default's fw_set_running() writes. */
    *(volatile uint32_t *)(uintptr_t)LANAI_BOOT_FLAG_ADDR = NICLAB_BOOT_RUNNING;
}

/* An RM-RV reply (it is its request's ACK), then recycled multicast copies: both before
 * new messages, the copies to drain the NI. Out of line: the loop stays as short as
 * it was before multicast. */
static __attribute__((noinline)) int pending_send(void)
{
    int progress = 0;
    if (sends_pending & PENDING_RM_REPLY)
        progress |= rm_reply_send();
    if (sends_pending & PENDING_MC)
        progress |= mc_send();
    return progress;
}

int main(void)
{
    grim_shared.version = GRIM_FW_VERSION;
    grim_shared.magic = GRIM_FW_MAGIC;
    fw_csr_set(mie, (1u << 11) | (1u << 7));  /* MEIE, MTIE: wake wfi */
    fw_timer_off();
#if GRIM_DATAPATH != GRIM_DP_STORE_FORWARD
    (void)*(volatile const uint32_t *)&grim_datapath;
#endif
    set_running();
    while (!grim_shared.go) {
        fw_ctrl_write(NICLAB_CTRL_EXT_IRQ_STATUS, fw_ctrl_read(NICLAB_CTRL_EXT_IRQ_STATUS));
        if (!grim_shared.go)
            fw_wfi();
    }
    if (grim_shared.nodes > GRIM_MAX_NODES || grim_shared.sram_bytes > LANAI_SRAM_MAX ||
        grim_shared.buffer_offset + CONTROL_SRAM_BYTES + STAGING_BYTES + RM_REPLY_SRAM_BYTES + 4096u > grim_shared.sram_bytes)
        fw_panic("driver configuration out of range (nodes, SRAM size or buffer offset)");
    if (grim_shared.lcs == 0 || grim_shared.lcs > GRIM_MAX_LCS)
        fw_panic("driver configuration: the number of logical channels is not 1..GRIM_MAX_LCS");
    for (uint32_t i = 0; i < GRIM_MAX_LCS; ++i) {
        const volatile struct grim_lc *L = &grim_shared.lc[i];
        if (L->enabled && ((L->sq_bytes & (L->sq_bytes - 1u)) || (L->rq_slots & (L->rq_slots - 1u)) || !L->rq_slots))
            fw_panic("a logical channel's send queue bytes and AM slots must be powers of two");
    }
    lc_boot();
    recv_boot();
    mc_boot();
    for (;;) {
        fw_ctrl_write(NICLAB_CTRL_EXT_IRQ_STATUS, fw_ctrl_read(NICLAB_CTRL_EXT_IRQ_STATUS));
        int progress = control_send();
        if (sends_pending)
            progress |= pending_send();
        progress |= scoreboard_retransmit();
        progress |= recv_poll();
        progress |= lc_send();
        if (!progress && !scoreboard_idle())  /* the retransmission timer, when idle */
            fw_wfi();
    }
}
