/*
 * Message transmission (seed 000 §4.3.1). The host stores the Portals header in the
 * upper pending of a TX id it allocated and sends PTL_CMD_TX; the firmware sets up
 * the lower pending, references the destination's source structure and enqueues the
 * pending at the tail of the single TX pending list in the NIC control block: all
 * transmits are serialized through the one TX FIFO. The TX state machine programs
 * pendings in list order - header DMA'd from the upper pending, payload straight
 * from host memory (zero-copy) - as long as all of a message's commands fit in the
 * FIFO; otherwise it yields to the main loop. Several messages may sit in the FIFO
 * at once. Completions come back in FIFO order, so each belongs to the list head.
 *
 * With go-back-N (gbn.h) each message gets a sequence number to its destination when
 * commanded, and a completed message waits for the receiver's acknowledgement before
 * its TX_DONE; a NACK puts messages back at the front of the not-yet-programmed part
 * of the list (tx_queue_front), as do the firmware's own control messages, whose
 * pendings have no source.
 */
#include "globals.h"

#include "niclab/fw/dma.h"
#include "accel.h"
#include "event.h"
#include "gbn.h"
#include "handlers.h"
#include "niccb.h"
#include "panic.h"
#include "pending.h"
#include "process.h"
#include "source.h"

#define TX_CMD_HEAD dma_reg(NICLAB_TXDMA_BASE, NICLAB_TXDMA_CMD_HEAD)
#define TX_CMD_TAIL dma_reg(NICLAB_TXDMA_BASE, NICLAB_TXDMA_CMD_TAIL)
#define TX_CPL_HEAD dma_reg(NICLAB_TXDMA_BASE, NICLAB_TXDMA_CPL_HEAD)
#define TX_CPL_TAIL dma_reg(NICLAB_TXDMA_BASE, NICLAB_TXDMA_CPL_TAIL)

/* tx_enqueue, inlined into the host's transmit path. */
static inline void enqueue(void)
{
#if PTL_GBN
    gbn_tx_number();
#endif
    pending->state = PEND_TX_QUEUED;
    pending->next = 0;
    if (cached_niccb.tx_tail)
        cached_niccb.tx_tail->next = pending;
    else
        cached_niccb.tx_head = pending;
    cached_niccb.tx_tail = pending;
    if (!cached_niccb.tx_next)
        cached_niccb.tx_next = pending;
}

#if PTL_GBN
/* Transmits waiting for a source (§4.3.3's exhaustion on the sending side): a host
 * command cannot be dropped and NACKed like an arriving message, so it waits until a
 * source is free. Every later transmit waits behind it, so none overtakes one to the
 * same destination. Until it is numbered, the pending's seq holds the destination.
 * The main loop looks at the list's head on every pass (main.c), not tx_progress:
 * a call from there would give tx_progress a stack frame on every pass, a quarter
 * of a microsecond per round trip. */
static struct lower_pending *waiting_tail;

static void wait_for_source(uint32_t dst)
{
    NICCB_INC(tx_source_waits);
    pending->seq = (uint16_t)dst;
    pending->state = PEND_TX_WAITING;
    pending->next = 0;
    if (waiting_tail)
        waiting_tail->next = pending;
    else
        cached_niccb.tx_waiting = pending;
    waiting_tail = pending;
}

int tx_waiting_progress(void)
{
    int progress = 0;
    while (cached_niccb.tx_waiting && source_get(cached_niccb.tx_waiting->seq)) {  /* sets source */
        pending = cached_niccb.tx_waiting;
        cached_niccb.tx_waiting = pending->next;
        if (!cached_niccb.tx_waiting)
            waiting_tail = 0;
        process = pending_process(pending);
        pending->source = source;
        enqueue();
        progress = 1;
    }
    return progress;
}
#endif

void tx_command(volatile const uint32_t *cmd)
{
    uint32_t id = cmd[PTL_TX_PENDING];
    trace_val(id);
    pending_for_command(id, pending_is_tx(id), PEND_FREE, "TX command: pending id outside the TX pool:",
                        "TX command: pending already in use: id");
    pending->id = (uint16_t)id;
    pending->addr_lo = cmd[PTL_TX_ADDR_LO];
    pending->addr_hi = cmd[PTL_TX_ADDR_HI];
    pending->length = cmd[PTL_TX_LENGTH];
    pending->flags = (uint8_t)(cmd[PTL_TX_FLAGS] & PTL_TX_SEGS);
    if (!(pending->flags & PTL_TX_SEGS))
        pending_free_segments();  /* SEG commands the TX does not use */
#if PTL_GBN
    if (cached_niccb.tx_waiting || !source_get(cmd[PTL_TX_DST])) {
        wait_for_source(cmd[PTL_TX_DST]);
        return;
    }
#else
    source_get(cmd[PTL_TX_DST]);
#endif
    pending->source = source;
    enqueue();
}

void tx_enqueue(void) { enqueue(); }


/* Commands the current pending's message takes: the header, then one per region. */
static uint32_t tx_commands_needed(void)
{
    if (pending->flags & PTL_TX_SEGS)
        return 1u + pending->nsegs;
    return pending->length ? 2u : 1u;
}

void tx_queue_front(struct lower_pending *first, struct lower_pending *last)
{
    struct lower_pending *next = cached_niccb.tx_next;
    last->next = next;
    if (cached_niccb.tx_head == next) {
        cached_niccb.tx_head = first;  /* also the empty list */
    } else {
        /* Behind the programmed pendings: at most a FIFO's worth, and only on this
         * rare path. */
        struct lower_pending *p = cached_niccb.tx_head;
        while (p->next != next)
            p = p->next;
        p->next = first;
    }
    if (!next)
        cached_niccb.tx_tail = last;
    cached_niccb.tx_next = first;
}

static void tx_put(uint32_t index, uint32_t ctrl, uint32_t length, uint32_t lo, uint32_t hi)
{
    volatile uint32_t *c = dma_entry(NICLAB_TXDMA_BASE, NICLAB_TXDMA_CMD_RING, NICLAB_TXDMA_CMD_BYTES, index, 0);
    c[NICLAB_TXCMD_CTRL] = ctrl;
#if PTL_GBN
    /* A control message has no source; its pending keeps the destination (gbn.c). */
    c[NICLAB_TXCMD_DST] = pending->source ? pending->source->nid : pending->addr_lo;
#else
    c[NICLAB_TXCMD_DST] = pending->source->nid;
#endif
    c[NICLAB_TXCMD_LENGTH] = length;
    c[NICLAB_TXCMD_ADDR_LO] = lo;
    c[NICLAB_TXCMD_ADDR_HI] = hi;
    c[NICLAB_TXCMD_TAG] = pending->id;
}

/* Write the current pending's commands into the TX FIFO and start them. */
static void tx_program(uint32_t n)
{
    struct process *p = pending_process(pending);  /* its upper pendings */
    uint32_t t = fifo_tail(TX_CMD_TAIL, &cached_niccb.tx_cmd);
    /* The header is DMA'd straight out of the upper pending. */
    uint32_t off = pending_hdr_offset(pending);
    uint32_t lo = p->upper_phys_lo + off;
    uint32_t hi = p->upper_phys_hi + (lo < off);
    tx_put(t, NICLAB_TXCMD_START | (n == 1 ? NICLAB_TXCMD_END : 0u), PTL_HDR_BYTES, lo, hi);
    if (pending->flags & PTL_TX_SEGS) {
        uint32_t ref = pending->seg_head;
        for (uint32_t i = 1; i < n; ++i) {
            const struct segment *s = segment_at(ref);
            t = dma_next(t);
            tx_put(t, i == n - 1 ? NICLAB_TXCMD_END : 0u, s->length, s->addr_lo, s->addr_hi);
            ref = s->next;
        }
    } else if (n == 2) {
        t = dma_next(t);
        tx_put(t, NICLAB_TXCMD_END, pending->length, pending->addr_lo, pending->addr_hi);
    }
    /* One tail store for the whole message: the engine starts it at once. */
    fifo_produce(TX_CMD_TAIL, &cached_niccb.tx_cmd, NICLAB_DMA_FIFO_ENTRIES, n);
    trace_val(pending->id);
}

int tx_progress(void)
{
    int progress = 0;
    while ((pending = cached_niccb.tx_next) != 0) {
        uint32_t n = tx_commands_needed();
        if (!fifo_has_room(TX_CMD_HEAD, TX_CMD_TAIL, &cached_niccb.tx_cmd, NICLAB_DMA_FIFO_ENTRIES, n)) {
            /* Yield: the main loop comes back when a completion frees room. Count
             * each time a message finds the FIFO full, not each poll. */
            if (cached_niccb.tx_next != cached_niccb.tx_blocked) {
                cached_niccb.tx_blocked = pending;
                NICCB_INC(tx_fifo_yields);
                trace();
            }
            break;
        }
        tx_program(n);
        pending->state = PEND_TX_SENDING;
        cached_niccb.tx_next = pending->next;
        cached_niccb.tx_blocked = 0;
        progress = 1;
    }
    return progress;
}

int tx_completions(void)
{
    int progress = 0;
    while (fifo_has_entry(TX_CPL_HEAD, TX_CPL_TAIL, &cached_niccb.tx_cpl)) {
        volatile uint32_t *cpl = dma_entry(NICLAB_TXDMA_BASE, NICLAB_TXDMA_CPL_RING, NICLAB_TXDMA_CPL_BYTES,
                                           fifo_head(TX_CPL_HEAD, &cached_niccb.tx_cpl), 0);
        uint32_t tag = cpl[NICLAB_CPL_TAG], status = cpl[NICLAB_CPL_STATUS], bytes = cpl[NICLAB_CPL_BYTES];
        fifo_consume(TX_CPL_HEAD, &cached_niccb.tx_cpl, NICLAB_DMA_FIFO_ENTRIES);
        trace_val(tag);
        pending = cached_niccb.tx_head;
        if (!pending || pending->id != tag || pending->state != PEND_TX_SENDING)
            fw_panic(reason_value("TX completion not for the head of the TX pending list: tag", tag));
        /* Unlink the head of the TX pending list. */
        cached_niccb.tx_head = pending->next;
        if (!cached_niccb.tx_head)
            cached_niccb.tx_tail = 0;
#if PTL_GBN
        gbn_tx_sent(status, bytes);
#else
        tx_release(status, bytes >= PTL_HDR_BYTES ? bytes - PTL_HDR_BYTES : 0u);
#endif
        progress = 1;
    }
    return progress;
}

void tx_release(uint32_t status, uint32_t payload)
{
#if PTL_ACCEL
    process = pending_process(pending);  /* its EQ */
    if (pending_is_rx(pending->id)) {
        /* A get reply the firmware sent for the accelerated process from the request's
         * RX pending: the host answers TX_DONE with PTL_CMD_RELEASE, which frees it. */
        pending->state = PEND_RX_DONE;
        accel_md_done(accel_pending_md[pending->id]);
        NICCB_INC(tx_messages);
        event_post(PTL_EV_TX_DONE, pending->id, status, payload);
        return;
    }
#endif
    pending->state = PEND_FREE;  /* the id is the host's again */
    pending_free_segments();
    source_put(pending->source);
    pending->source = 0;
    NICCB_INC(tx_messages);
    event_post(PTL_EV_TX_DONE, pending->id, status, payload);
}
