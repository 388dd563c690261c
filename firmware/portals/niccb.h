/*
 * The NIC control block (seed 000 §4.2): one per firmware, global state. The part
 * the host reads (struct ptl_niccb, portals_fw.h) is the symbol `niccb` in uncached
 * SRAM. `cached_niccb` is its cached shadow plus the fields only the firmware uses:
 * the single serialized TX pending list (§4.3.1), the heartbeat and the DMA FIFO
 * index shadows.
 *
 * Write-through (§5.3): counters are read and updated in the cached copy and the
 * result is stored to the uncached word, so no uncached read is ever needed:
 *
 *     niccb.heartbeat = ++cached_niccb.heartbeat;
 *
 * Without PTL_WRITE_THROUGH every update is a read-modify-write of the uncached word.
 */
#ifndef PTL_NICCB_H
#define PTL_NICCB_H

#include <stdint.h>

#include "niclab/fw/hw.h"
#include "config.h"
#include "fifo.h"

struct lower_pending;

struct fw_niccb {
    struct ptl_niccb sh;            /* shadow of the host-visible words */
    uint32_t heartbeat;             /* shadow of the RAS heartbeat word */
    /* TX pending list: every transmit, in command order (§4.3.1). */
    struct lower_pending *tx_head;  /* oldest: the next TX completion is its */
    struct lower_pending *tx_tail;
    struct lower_pending *tx_next;  /* first whose commands are not in the TX FIFO yet */
    struct lower_pending *tx_blocked; /* tx_next when it last found the FIFO full */
    struct lower_pending *tx_waiting; /* go-back-N: transmits waiting for a source (tx.c), oldest first */
    uint32_t segments_in_use;
    /* DMA engine FIFO index shadows (§5.3). */
    struct fifo_shadow tx_cmd, tx_cpl, rx_evt, rx_cmd, rx_cpl;
};

extern volatile struct ptl_niccb niccb;
extern struct fw_niccb cached_niccb;

#if PTL_WRITE_THROUGH
#define NICCB_INC(f)     (niccb.f = ++cached_niccb.sh.f)
#define NICCB_DEC(f)     (niccb.f = --cached_niccb.sh.f)
#define NICCB_ADD(f, n)  (niccb.f = cached_niccb.sh.f += (n))
/* High-water mark of counter f in f_max. */
#define NICCB_MAX(f, m)                                          \
    do {                                                         \
        if (cached_niccb.sh.f > cached_niccb.sh.m)               \
            niccb.m = cached_niccb.sh.m = cached_niccb.sh.f;     \
    } while (0)
#else
#define NICCB_INC(f)     (++niccb.f)
#define NICCB_DEC(f)     (--niccb.f)
#define NICCB_ADD(f, n)  (niccb.f += (n))
#define NICCB_MAX(f, m)                                          \
    do {                                                         \
        uint32_t v_ = niccb.f;                                   \
        if (v_ > niccb.m)                                        \
            niccb.m = v_;                                        \
    } while (0)
#endif

/* Fill the configuration words (before the running flag, §3.2). */
void niccb_boot(void);

/* Once per main-loop iteration: the RAS system watches this word (§5.3). */
static inline void heartbeat(void)
{
    volatile uint32_t *hb = (volatile uint32_t *)(uintptr_t)NICLAB_HEARTBEAT_ADDR;
#if PTL_WRITE_THROUGH
    *hb = ++cached_niccb.heartbeat;
#else
    *hb = *hb + 1u;
#endif
}

#endif /* PTL_NICCB_H */
