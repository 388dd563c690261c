/*
 * Message reception, generic mode (seed 000 §4.3.2). The RX DMA engine announces a
 * new message with an event carrying its first 64 bytes (the Portals header). The
 * firmware finds the sender's source structure (hash table, allocated on first
 * contact), the target process by the header's pid, and takes a pending from that
 * process's RX pending free list; it writes the whole header into the upper pending
 * and posts NEW_MSG. The host matches the header and answers with PTL_CMD_RX (where
 * to put the payload); the firmware links the lower pending at the tail of the
 * source's RX pending list and programs the RX DMA engine for it once it reaches the
 * head. On completion it posts RX_DONE and programs the source's next pending; the
 * host's PTL_CMD_RELEASE returns the pending to the free list.
 *
 * Very small messages (§5.2, PTL_VSMALL): a header-only message (its payload, up to
 * PTL_INLINE_BYTES, travels inside the header) is complete when its event arrives;
 * the firmware discards the slot itself and posts NEW_MSG_COMPLETE, saving the
 * second interrupt.
 *
 * Go-back-N (gbn.h): a message is taken only if it carries the sequence number
 * expected from its sender and a source and an RX pending are free; otherwise the
 * engine is told to discard it and gbn.c decides whether the sender is owed a NACK.
 * Control messages (dst_pid PTL_PID_FIRMWARE) are the firmware's own: read and
 * discarded, never shown to the host.
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

#define RX_EVT_HEAD dma_reg(NICLAB_RXDMA_BASE, NICLAB_RXDMA_EVT_HEAD)
#define RX_EVT_TAIL dma_reg(NICLAB_RXDMA_BASE, NICLAB_RXDMA_EVT_TAIL)
#define RX_CMD_HEAD dma_reg(NICLAB_RXDMA_BASE, NICLAB_RXDMA_CMD_HEAD)
#define RX_CMD_TAIL dma_reg(NICLAB_RXDMA_BASE, NICLAB_RXDMA_CMD_TAIL)
#define RX_CPL_HEAD dma_reg(NICLAB_RXDMA_BASE, NICLAB_RXDMA_CPL_HEAD)
#define RX_CPL_TAIL dma_reg(NICLAB_RXDMA_BASE, NICLAB_RXDMA_CPL_TAIL)

/* Tag bit of deposits the firmware issues on its own (VSMALL discards): their
 * completions are consumed silently. */
#define RX_TAG_INTERNAL 0x80000000u
/* Tag bit of deposits for the accelerated process's pendings (ids repeat per pool). */
#define RX_TAG_ACCEL 0x40000000u

static inline uint32_t rx_tag(const struct lower_pending *lp)
{
#if PTL_ACCEL
    return lp->id | (pending_process(lp) == &generic_process ? 0u : RX_TAG_ACCEL);
#else
    return lp->id;
#endif
}

/* Reserve room for `n` deposit commands. The engine takes commands as soon as the
 * tail moves, so a full FIFO is momentary. */
static uint32_t rx_reserve(uint32_t n)
{
    while (!fifo_has_room(RX_CMD_HEAD, RX_CMD_TAIL, &cached_niccb.rx_cmd, NICLAB_DMA_FIFO_ENTRIES, n))
        ;
    return fifo_tail(RX_CMD_TAIL, &cached_niccb.rx_cmd);
}

static void rx_put(uint32_t index, uint32_t slot, uint32_t ctrl, uint32_t discard, uint32_t length, uint32_t lo,
                   uint32_t hi, uint32_t tag)
{
    volatile uint32_t *c = dma_entry(NICLAB_RXDMA_BASE, NICLAB_RXDMA_CMD_RING, NICLAB_RXDMA_CMD_BYTES, index, 0);
    c[NICLAB_RXCMD_SLOT] = slot;
    c[NICLAB_RXCMD_CTRL] = ctrl;
    c[NICLAB_RXCMD_DISCARD] = discard;
    c[NICLAB_RXCMD_LENGTH] = length;
    c[NICLAB_RXCMD_ADDR_LO] = lo;
    c[NICLAB_RXCMD_ADDR_HI] = hi;
    c[NICLAB_RXCMD_TAG] = tag;
}

/* Program the RX DMA engine for the current pending, the head of its source's RX
 * pending list: skip the header (already in the upper pending), write the payload
 * to the host's buffer or segments, discard the rest. */
static void rx_program(void)
{
    struct lower_pending *lp = pending;
    trace_val(lp->id);
    if ((lp->flags & PTL_RX_SEGS) && lp->nsegs) {
        uint32_t n = lp->nsegs;
        uint32_t t = rx_reserve(n);
        uint32_t ref = lp->seg_head;
        for (uint32_t i = 0; i < n; ++i) {
            const struct segment *s = segment_at(ref);
            rx_put(t, lp->slot, i == n - 1 ? NICLAB_RXCMD_END : 0u, i == 0 ? PTL_HDR_BYTES : 0u, s->length,
                   s->addr_lo, s->addr_hi, rx_tag(lp));
            t = dma_next(t);
            ref = s->next;
        }
        fifo_produce(RX_CMD_TAIL, &cached_niccb.rx_cmd, NICLAB_DMA_FIFO_ENTRIES, n);
    } else {
        uint32_t length = lp->flags & PTL_RX_SEGS ? 0u : lp->length;
        rx_put(rx_reserve(1), lp->slot, NICLAB_RXCMD_END, PTL_HDR_BYTES, length, lp->addr_lo, lp->addr_hi, rx_tag(lp));
        fifo_produce(RX_CMD_TAIL, &cached_niccb.rx_cmd, NICLAB_DMA_FIFO_ENTRIES, 1);
    }
    lp->state = PEND_RX_DEPOSITING;
}

static inline void discard(uint32_t slot)
{
    rx_put(rx_reserve(1), slot, NICLAB_RXCMD_END, 0, 0, 0, 0, RX_TAG_INTERNAL);
    fifo_produce(RX_CMD_TAIL, &cached_niccb.rx_cmd, NICLAB_DMA_FIFO_ENTRIES, 1);
}

void rx_discard(uint32_t slot) { discard(slot); }

#if PTL_GBN

_Static_assert(__builtin_offsetof(struct ptl_hdr, seq) == PTL_HDR_SEQ_OFFSET, "PTL_HDR_SEQ_OFFSET");
_Static_assert(__builtin_offsetof(struct ptl_hdr, dst_pid) == PTL_HDR_DST_PID_OFFSET, "PTL_HDR_DST_PID_OFFSET");
#endif

/* Copy the 64-byte header from the RX event into the upper pending, through the host
 * window: the firmware writes upper pendings, it never reads them. */
static void rx_write_header(volatile const uint32_t *hdr)
{
    volatile uint32_t *up =
        (volatile uint32_t *)(uintptr_t)(process->upper_window + (uint32_t)pending->id * PTL_UPPER_BYTES);
    for (uint32_t i = 0; i < PTL_HDR_BYTES / 4u; ++i)
        up[i] = hdr[i];
}

int rx_events(void)
{
    /* Before PTL_CMD_INIT there is nowhere to put headers or events: messages wait
     * in the RX DMA engine (which holds them back through flow control). */
    if (!generic_process.initialized)
        return 0;
    int progress = 0;
    while (fifo_has_entry(RX_EVT_HEAD, RX_EVT_TAIL, &cached_niccb.rx_evt)) {
        volatile uint32_t *e = dma_entry(NICLAB_RXDMA_BASE, NICLAB_RXDMA_EVT_RING, NICLAB_RXDMA_EVT_BYTES,
                                         fifo_head(RX_EVT_HEAD, &cached_niccb.rx_evt), 0);
        volatile const uint32_t *hdr = e + NICLAB_RXEVT_HEADER / 4u;
        uint32_t slot = e[NICLAB_RXEVT_SLOT], src = e[NICLAB_RXEVT_SRC], length = e[NICLAB_RXEVT_LENGTH];
        trace_val(src);
#if PTL_GBN
        uint32_t pid = hdr[PTL_HDR_DST_PID_OFFSET / 4u] >> 16;
        if (pid == PTL_PID_FIRMWARE) {
            gbn_control(src, hdr);
            fifo_consume(RX_EVT_HEAD, &cached_niccb.rx_evt, NICLAB_DMA_FIFO_ENTRIES);
            discard(slot);
            progress = 1;
            continue;
        }
        struct peer *pe = peer_at(src);
        uint32_t word = hdr[PTL_HDR_SEQ_OFFSET / 4u];
        uint32_t seq = word & 0xFFFFu;
        int taken = 0;
        if (gbn_expected(pe, seq) && source_get(src)) {            /* sets source */
            process_for_pid(pid);                                  /* sets process */
            taken = rx_pending_alloc();                            /* sets pending */
            if (!taken)
                source_put(source);
        }
        if (!taken) {
            fifo_consume(RX_EVT_HEAD, &cached_niccb.rx_evt, NICLAB_DMA_FIFO_ENTRIES);
            discard(slot);
            gbn_rx_dropped(pe, seq);
            gbn_rx_ack(pe, word >> 16);  /* dropped or not, its piggybacked ACK counts */
            progress = 1;
            continue;
        }
        gbn_rx_accepted(pe);
#else
        source_get(src);                                           /* sets source */
        process_for_pid(hdr[PTL_HDR_DST_PID_OFFSET / 4u] >> 16);  /* sets process */
        rx_pending_alloc();                                        /* sets pending */
#endif
        pending->source = source;
        pending->slot = (uint8_t)slot;
        NICCB_INC(rx_messages);
        rx_write_header(hdr);
        fifo_consume(RX_EVT_HEAD, &cached_niccb.rx_evt, NICLAB_DMA_FIFO_ENTRIES);  /* after the last read */
#if PTL_ACCEL
        if (process != &generic_process)
            accel_arrival(hdr, slot, length, src);  /* matched here, no interrupt */
        else
#endif
#if PTL_VSMALL
        if (length <= PTL_HDR_BYTES) {
            /* Nothing left to deposit: let the engine free the slot, ignore its
             * completion, and tell the host the message is complete. */
            discard(slot);
            pending->state = PEND_RX_DONE;
            event_post(PTL_EV_NEW_MSG_COMPLETE, pending->id, length, src);
        } else
#endif
        {
            pending->state = PEND_RX_ANNOUNCED;
            event_post(PTL_EV_NEW_MSG, pending->id, length, src);
        }
#if PTL_GBN
        /* The piggybacked ACK after this message's event: both reach the host in one
         * interrupt, which handles the whole batch before its process runs again (so
         * a reply's MD is free when the process sees the reply), and the process
         * finds the message before the SEND_ENDs it does not wait for. */
        gbn_rx_ack(pe, word >> 16);
#endif
        progress = 1;
    }
    return progress;
}

void rx_command(volatile const uint32_t *cmd)
{
    uint32_t id = cmd[PTL_RX_PENDING];
    trace_val(id);
    pending_for_command(id, pending_is_rx(id), PEND_RX_ANNOUNCED, "RX command: pending id outside the RX pool:",
                        "RX command for a pending without a NEW_MSG: id");
    pending->addr_lo = cmd[PTL_RX_ADDR_LO];
    pending->addr_hi = cmd[PTL_RX_ADDR_HI];
    pending->length = cmd[PTL_RX_LENGTH];
    pending->flags = (uint8_t)(cmd[PTL_RX_FLAGS] & PTL_RX_SEGS);
    rx_queue();
}

void rx_queue(void)
{
    /* Tail of the source's RX pending list; program it if it is the head. */
    source = pending->source;
    pending->next = 0;
    pending->state = PEND_RX_QUEUED;
    if (source->rx_tail)
        source->rx_tail->next = pending;
    else
        source->rx_head = pending;
    source->rx_tail = pending;
    if (source->rx_head == pending)
        rx_program();
}

int rx_completions(void)
{
    int progress = 0;
    while (fifo_has_entry(RX_CPL_HEAD, RX_CPL_TAIL, &cached_niccb.rx_cpl)) {
        volatile uint32_t *cpl = dma_entry(NICLAB_RXDMA_BASE, NICLAB_RXDMA_CPL_RING, NICLAB_RXDMA_CPL_BYTES,
                                           fifo_head(RX_CPL_HEAD, &cached_niccb.rx_cpl), 0);
        uint32_t tag = cpl[NICLAB_CPL_TAG], status = cpl[NICLAB_CPL_STATUS], bytes = cpl[NICLAB_CPL_BYTES];
        fifo_consume(RX_CPL_HEAD, &cached_niccb.rx_cpl, NICLAB_DMA_FIFO_ENTRIES);
        progress = 1;
        trace_val(tag);
        if (tag & RX_TAG_INTERNAL)
            continue;  /* a discard: the host already has its event, or none is due */
#if PTL_ACCEL
        process = (tag & RX_TAG_ACCEL) ? &accel_process : &generic_process;
        tag &= ~RX_TAG_ACCEL;
#endif
        if (!pending_is_rx(tag) || process->pendings[tag].state != PEND_RX_DEPOSITING)
            fw_panic(reason_value("RX completion for a pending not depositing: tag", tag));
        pending = &process->pendings[tag];
        source = pending->source;
        if (source->rx_head != pending)
            fw_panic(reason_value("RX completion not for the head of its source's list: tag", tag));
        source->rx_head = pending->next;
        if (!source->rx_head)
            source->rx_tail = 0;
        pending->next = 0;
        pending->state = PEND_RX_DONE;
        pending_free_segments();
#if PTL_ACCEL
        if (process != &generic_process)
            accel_md_done(accel_pending_md[tag]);  /* its deposit is in the MD */
#endif
        event_post(PTL_EV_RX_DONE, tag, status, bytes);
        if (source->rx_head) {
            pending = source->rx_head;  /* this source's next message */
            rx_program();
        }
    }
    return progress;
}

void rx_release(volatile const uint32_t *cmd)
{
    uint32_t id = cmd[PTL_RELEASE_PENDING];
    trace_val(id);
    pending_for_command(id, pending_is_rx(id), PEND_RX_DONE, "RELEASE: pending id outside the RX pool:",
                        "RELEASE of a pending that is not done: id");
    source_put(pending->source);
    rx_pending_free();
}
