/*
 * The lower pending pool and the RX pending free list (seed 000 §4.2), and the DMA
 * segment pool for non-contiguous buffers (§4.3.1: the host pre-computes the DMA
 * regions and pushes them down with PTL_CMD_SEG).
 *
 * Free lists start empty and grow lazily: an allocation takes from the free list
 * first, then the next never-used entry (a slab cursor), and initializes that entry
 * on its first use. Only the TX pendings (the host may use any id at once) are set
 * up at boot, which keeps the boot short even with the caches off (pools.ld).
 */
#include "globals.h"

#include "niccb.h"
#include "panic.h"
#include "pending.h"
#include "process.h"

PTL_POOL struct lower_pending lower_pendings[PTL_PROCESSES * PTL_PENDINGS];
PTL_POOL struct segment segments[PTL_SEGMENTS];

static uint32_t segment_free;   /* reference of the first free segment, SEG_NONE if none */
static uint32_t segment_fresh;  /* segments never used yet start here */

void pending_boot(void)
{
    /* The host owns the TX ids from the start: make them free, with no segments (in
     * every process's pool). */
    for (uint32_t i = 0; i < PTL_PROCESSES * PTL_PENDINGS; ++i) {
        uint32_t id = i % PTL_PENDINGS;
        if (!pending_is_tx(id))
            continue;
        struct lower_pending *lp = &lower_pendings[i];
        lp->id = (uint16_t)id;
        lp->state = PEND_FREE;
        lp->seg_head = lp->seg_tail = SEG_NONE;
        lp->nsegs = 0;
        lp->source = 0;
        lp->next = 0;
    }
}

int rx_pending_alloc(void)
{
    struct process *p = process;
    struct lower_pending *lp = p->rx_free;
    if (lp) {
        p->rx_free = lp->next;
    } else if (p->rx_fresh < PTL_RX_PENDINGS) {
        /* First use: the pools are not cleared at boot (pools.ld). */
        uint32_t id = PTL_TX_PENDINGS + p->rx_fresh++;
        lp = &p->pendings[id];
        lp->id = (uint16_t)id;
        lp->seg_head = lp->seg_tail = SEG_NONE;
        lp->nsegs = 0;
    } else {
#if PTL_GBN
        return 0;  /* the caller drops the message and owes its sender a NACK (gbn.c) */
#else
        /* §4.3.3: the seed's firmware, the node panics. */
        fw_panic(reason_pool("RX pending", p->rx_in_use, PTL_RX_PENDINGS));
#endif
    }
    p->rx_in_use++;
    NICCB_INC(rx_in_use);
    NICCB_MAX(rx_in_use, rx_in_use_max);
    lp->next = 0;
    lp->flags = 0;
    pending = lp;
    return 1;
}

void rx_pending_free(void)
{
    struct process *p = process;
    pending_free_segments();
    pending->state = PEND_FREE;
    pending->source = 0;
    pending->next = p->rx_free;
    p->rx_free = pending;
    p->rx_in_use--;
    NICCB_DEC(rx_in_use);
}

void pending_add_segment(uint32_t addr_lo, uint32_t addr_hi, uint32_t length)
{
    struct lower_pending *lp = pending;
    if (lp->nsegs >= PTL_MAX_SEGS)
        fw_panic(reason_value("SEG command: more than 32 segments for pending", lp->id));
    uint32_t ref = segment_free;
    if (ref != SEG_NONE)
        segment_free = segment_at(ref)->next;
    else if (segment_fresh < PTL_SEGMENTS)
        ref = ++segment_fresh;
    else
        fw_panic(reason_pool("segment", cached_niccb.segments_in_use, PTL_SEGMENTS));
    cached_niccb.segments_in_use++;
    struct segment *s = segment_at(ref);
    s->addr_lo = addr_lo;
    s->addr_hi = addr_hi;
    s->length = length;
    s->next = SEG_NONE;
    if (lp->seg_tail != SEG_NONE)
        segment_at(lp->seg_tail)->next = (uint16_t)ref;
    else
        lp->seg_head = (uint16_t)ref;
    lp->seg_tail = (uint16_t)ref;
    lp->nsegs++;
}

void pending_free_segments(void)
{
    struct lower_pending *lp = pending;
    if (lp->seg_head == SEG_NONE)
        return;
    segment_at(lp->seg_tail)->next = (uint16_t)segment_free;  /* splice the whole chain */
    segment_free = lp->seg_head;
    cached_niccb.segments_in_use -= lp->nsegs;
    lp->seg_head = lp->seg_tail = SEG_NONE;
    lp->nsegs = 0;
}

void pending_for_command(uint32_t id, int in_pool, uint8_t state, const char *bad_id, const char *bad_state)
{
    if (!in_pool)
        fw_panic(reason_value(bad_id, id));
    pending = &process->pendings[id];
    if (pending->state != state)
        fw_panic(reason_value(bad_state, id));
}
