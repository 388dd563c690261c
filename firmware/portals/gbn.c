/*
 * Go-back-N on resource exhaustion (gbn.h has the protocol).
 */
#include "globals.h"

#include "gbn.h"

#if PTL_GBN

#include "handlers.h"
#include "niccb.h"
#include "panic.h"
#include "pending.h"
#include "process.h"
#include "source.h"

#define PEER_NACKING   0x01u  /* dropping this peer's messages until rx_expect comes again */
#define PEER_NACK_OWED 0x02u  /* a NACK(rx_expect) waits for resources and a control pending */
#define PEER_NACK_SENT 0x04u  /* a NACK went out and its retransmission has not arrived yet */
#define PEER_ACK_OWED  0x08u  /* accepted messages not acknowledged yet */
#define PEER_LISTED    0x10u  /* on the owed list */

/* Cleared at boot (gbn_boot), so not in .bss: crt0 would clear it with the caches off. */
PTL_POOL struct peer gbn_peers[PTL_PEERS];

/* Ids PTL_PENDINGS.. : their upper halves follow the RX pool's (the host allocates
 * niccb.ctrl_pendings more). Not in the seed's M: they are go-back-N's. */
PTL_POOL static struct lower_pending gbn_ctrl_pendings[PTL_CTRL_PENDINGS];

static uint32_t owed_head, owed_tail;  /* peers owed an ACK or NACK (node id + 1), in order */
static uint32_t nacks_outstanding;     /* peers with PEER_NACK_SENT */
static uint32_t nacks_owed;            /* peers with PEER_NACK_OWED */
static uint8_t acks_every;             /* a peer reached PTL_ACK_EVERY unacknowledged messages */
static uint32_t ctrl_free;             /* bit i: control pending PTL_PENDINGS + i is free */

static inline struct lower_pending *pend(uint32_t ref) { return &lower_pendings[ref - 1u]; }
/* By place in lower_pendings, not id: ids repeat in each process's pool (with one
 * process the two are the same). */
#if PTL_ACCEL
static inline uint32_t ref_of(const struct lower_pending *lp) { return lp ? pending_index(lp) + 1u : 0u; }
#else
static inline uint32_t ref_of(const struct lower_pending *lp) { return lp ? lp->id + 1u : 0u; }
#endif

static void peer_clear(struct peer *pe)
{
    pe->tx_seq = pe->tx_acked = pe->rx_expect = 0;
    pe->unacked_head = pe->unacked_tail = pe->owed_next = 0;
    pe->flags = pe->rx_unacked = 0;
}

#if PTL_PEERS_LAZY
PTL_POOL uint32_t gbn_peers_seen[(PTL_PEERS + 31) / 32];

void gbn_first_contact(uint32_t nid)
{
    peer_clear(&gbn_peers[nid]);
    gbn_peers_seen[nid >> 5] |= 1u << (nid & 31);
}
#endif

void gbn_boot(void)
{
#if PTL_PEERS_LAZY
    for (uint32_t i = 0; i < (PTL_PEERS + 31) / 32; ++i)
        gbn_peers_seen[i] = 0;
#else
    for (uint32_t i = 0; i < PTL_PEERS; ++i)
        peer_clear(&gbn_peers[i]);
#endif
    ctrl_free = (PTL_CTRL_PENDINGS == 32) ? 0xFFFFFFFFu : (1u << PTL_CTRL_PENDINGS) - 1u;
}

void gbn_bad_peer(uint32_t nid)
{
    fw_panic(reason_value("go-back-N: node id at or above PTL_PEERS:", nid));
}

/* ---- sender ---- */

void gbn_tx_number(void)
{
    struct lower_pending *lp = pending;
    struct peer *pe = peer_at(lp->source->nid);
    lp->seq = pe->tx_seq++;
    /* One posted store through the host window, seq and the cumulative ACK of the
     * peer's messages in one word; the TX DMA engine reads the header after it (the
     * bridge keeps a core's writes ahead of the engine's later reads). */
    volatile uint32_t *word =
        (volatile uint32_t *)(uintptr_t)(process->upper_window + pending_hdr_offset(lp) + PTL_HDR_SEQ_OFFSET);
    *word = lp->seq | (uint32_t)pe->rx_expect << 16;
    /* The message carries the ACK owed: no standalone one needed (a NACK owed still is). */
    if (pe->flags & PEER_ACK_OWED) {
        pe->flags &= (uint8_t)~PEER_ACK_OWED;
        pe->rx_unacked = 0;
    }
}

/* Payload bytes of `pending`'s message, for a TX_DONE posted after its completion. */
static uint32_t payload_bytes(void)
{
    struct lower_pending *lp = pending;
    if (!(lp->flags & PTL_TX_SEGS))
        return lp->length;
    uint32_t n = 0;
    for (uint32_t ref = lp->seg_head, i = 0; i < lp->nsegs; ++i, ref = segment_at(ref)->next)
        n += segment_at(ref)->length;
    return n;
}

/* Keep `lp` on its peer's unacknowledged list, in sequence order: appended in the
 * common case; after a go-back, messages that were in the TX FIFO when the NACK came
 * complete after older ones were queued again, and are inserted in place. */
static void unacked_insert(struct peer *pe, struct lower_pending *lp)
{
    uint32_t ref = ref_of(lp);
    lp->next = 0;
    if (!pe->unacked_head) {
        pe->unacked_head = pe->unacked_tail = (uint16_t)ref;
        return;
    }
    struct lower_pending *tail = pend(pe->unacked_tail);
    if (seq_before(tail->seq, lp->seq)) {
        tail->next = lp;
        pe->unacked_tail = (uint16_t)ref;
        return;
    }
    struct lower_pending *prev = 0, *cur = pend(pe->unacked_head);
    while (seq_before(cur->seq, lp->seq)) {
        prev = cur;
        cur = cur->next;
    }
    lp->next = cur;
    if (prev)
        prev->next = lp;
    else
        pe->unacked_head = (uint16_t)ref;
}

/* Queue `lp` to go again, in sequence order among its peer's messages not yet in the
 * TX FIFO (those go_back queued before it, and later ones), ahead of the first with a
 * higher number. A rare path: the walk over the TX list is fine. */
static void resend(struct lower_pending *lp)
{
    struct source *dst = lp->source;
    struct lower_pending *prev = 0, *cur = cached_niccb.tx_head;
    int queued = 0;  /* past tx_next: not in the FIFO yet */
    for (; cur; prev = cur, cur = cur->next) {
        queued |= cur == cached_niccb.tx_next;
        if (queued && cur->source == dst && seq_before(lp->seq, cur->seq))
            break;
    }
    lp->state = PEND_TX_QUEUED;
    lp->next = cur;
    if (prev)
        prev->next = lp;
    else
        cached_niccb.tx_head = lp;
    if (!cur)
        cached_niccb.tx_tail = lp;
    if (cur == cached_niccb.tx_next)
        cached_niccb.tx_next = lp;
    NICCB_INC(retransmits);
    trace_val(lp->seq);
}

/* The TX engine could not read `lp`'s payload (a host fault) and sent nothing, but the
 * message has its sequence number: without it the receiver would wait for it for
 * ever. It goes again as a header-only PTL_MSG_FW_SKIP with the same number, under
 * go-back-N like any message; the host's TX_DONE, posted when it is acknowledged,
 * reports the fault. */
static void skip(struct lower_pending *lp)
{
    volatile uint32_t *up =
        (volatile uint32_t *)(uintptr_t)(pending_process(lp)->upper_window + pending_hdr_offset(lp));
    up[0] = PTL_MSG_FW_SKIP;
    up[PTL_HDR_DST_PID_OFFSET / 4u] = PTL_PID_FIRMWARE << 16;  /* the seq word stays */
    pending_free_segments();
    lp->flags = (uint8_t)((lp->flags & PEND_HDR_SECOND_HALF) | PEND_FAILED);
    lp->length = 0;
    NICCB_INC(tx_skips);
    resend(lp);
}

void gbn_tx_sent(uint32_t status, uint32_t bytes)
{
    struct lower_pending *lp = pending;
    if (!lp->source) {  /* a control message: its pending is ours again */
        lp->state = PEND_FREE;
        ctrl_free |= 1u << (lp->id - PTL_PENDINGS);
        return;
    }
    struct peer *pe = peer_at(lp->source->nid);
    if (status != NICLAB_DMA_OK && !(lp->flags & PEND_FAILED) && !seq_before(lp->seq, pe->tx_acked)) {
        skip(lp);
        return;
    }
    /* An ACK may beat a long message's completion. A skip that failed too (its header
     * could not be read) ends here: its number is lost. */
    if (status != NICLAB_DMA_OK || seq_before(lp->seq, pe->tx_acked)) {
        tx_release(status, bytes >= PTL_HDR_BYTES ? bytes - PTL_HDR_BYTES : 0u);
        return;
    }
    if (lp->flags & PEND_RESEND) {
        lp->flags &= (uint8_t)~PEND_RESEND;
        resend(lp);
        return;
    }
    lp->state = PEND_TX_UNACKED;
    unacked_insert(pe, lp);
}

/* The peer accepted every message before `n`: post their TX_DONEs. */
static void acked(struct peer *pe, uint32_t n)
{
    if (!seq_before(pe->tx_acked, n))
        return;  /* nothing new */
    /* Messages already out, whose completions wait in the FIFO, are covered too: their
     * TX_DONEs go before the event of the message that brought the ACK. */
    tx_completions();
    pe->tx_acked = (uint16_t)n;
    while (pe->unacked_head) {
        struct lower_pending *lp = pend(pe->unacked_head);
        if (!seq_before(lp->seq, n))
            break;
        pe->unacked_head = (uint16_t)ref_of(lp->next);
        pending = lp;
        tx_release((lp->flags & PEND_FAILED) ? NICLAB_DMA_HOST_FAULT : NICLAB_DMA_OK, payload_bytes());
    }
    if (!pe->unacked_head)
        pe->unacked_tail = 0;
}

/* Go back to `n`: everything unacknowledged from n on goes out again, in order, ahead
 * of the messages still queued (which have higher numbers). */
static void go_back(struct peer *pe, uint32_t n)
{
    tx_completions();  /* messages already out join the unacknowledged list first */
    acked(pe, n);
    /* Messages to this peer still in the TX FIFO left after the receiver sent the NACK,
     * so it drops them; none is on the unacknowledged list yet, and without this they
     * would wait there for an ACK that never comes. Each goes again as it completes. */
    for (struct lower_pending *lp = cached_niccb.tx_head; lp != cached_niccb.tx_next; lp = lp->next)
        if (lp->source && peer_at(lp->source->nid) == pe)
            lp->flags |= PEND_RESEND;
    if (!pe->unacked_head)
        return;
    struct lower_pending *first = pend(pe->unacked_head), *last = pend(pe->unacked_tail);
    uint32_t count = 0;
    for (struct lower_pending *lp = first; lp; lp = lp->next) {
        lp->state = PEND_TX_QUEUED;
        ++count;
    }
    pe->unacked_head = pe->unacked_tail = 0;
    tx_queue_front(first, last);
    NICCB_ADD(retransmits, count);
    trace_val(count);
}

void gbn_control(uint32_t src, volatile const uint32_t *hdr)
{
    uint32_t type = hdr[0] & 0xFFu;
    uint32_t n = hdr[PTL_HDR_SEQ_OFFSET / 4u] >> 16;  /* ack */
    struct peer *pe = peer_at(src);
    trace_val(n);
    if (type == PTL_MSG_FW_NACK) {
        NICCB_INC(nacks_received);
        go_back(pe, n);
    } else if (type == PTL_MSG_FW_ACK) {
        NICCB_INC(acks_received);
        acked(pe, n);
    } else if (type == PTL_MSG_FW_SKIP) {
        /* In sequence like a message, but nothing to take: no resources needed. */
        uint32_t seq = hdr[PTL_HDR_SEQ_OFFSET / 4u] & 0xFFFFu;
        NICCB_INC(skips_received);
        acked(pe, n);
        if (gbn_expected(pe, seq))
            gbn_rx_accepted(pe);
        else
            gbn_rx_dropped(pe, seq);
    } else {
        fw_panic(reason_value("go-back-N: unknown control message type", type));
    }
}

void gbn_acked(struct peer *pe, uint32_t ack) { acked(pe, ack); }

/* ---- receiver ---- */

static void owe(struct peer *pe, uint32_t flag)
{
    pe->flags |= (uint8_t)flag;
    if (pe->flags & PEER_LISTED)
        return;
    pe->flags |= PEER_LISTED;
    pe->owed_next = 0;
    uint32_t ref = (uint32_t)(pe - gbn_peers) + 1u;
    if (owed_tail)
        gbn_peers[owed_tail - 1u].owed_next = (uint16_t)ref;
    else
        owed_head = ref;
    owed_tail = ref;
}

static void owe_nack(struct peer *pe)
{
    if (!(pe->flags & PEER_NACK_OWED))
        nacks_owed++;
    owe(pe, PEER_NACK_OWED);
}

/* The message a NACK asked for arrived (taken or not): that NACK is answered. */
static void nack_answered(struct peer *pe)
{
    if (pe->flags & PEER_NACK_SENT)
        nacks_outstanding--;
    if (pe->flags & PEER_NACK_OWED)
        nacks_owed--;
    pe->flags &= (uint8_t)~(PEER_NACK_SENT | PEER_NACK_OWED);
}

void gbn_rx_dropped(struct peer *pe, uint32_t seq)
{
    NICCB_INC(rx_drops);
    trace_val(seq);
    if (seq == pe->rx_expect) {
        nack_answered(pe);  /* and owed again: the resources are short */
        pe->flags |= PEER_NACKING;
        owe_nack(pe);
    } else if (pe->flags & PEER_NACKING) {
        /* Later messages of a stream that will be sent again: silently. */
    } else if (seq_before(pe->rx_expect, seq)) {
        /* A gap: messages before this one were dropped while their go-back was under
         * way (they were in the sender's TX FIFO when it went back). */
        pe->flags |= PEER_NACKING;
        owe_nack(pe);
    } else {
        owe(pe, PEER_ACK_OWED);  /* an old duplicate: the sender may lack our ACK */
    }
}

void gbn_rx_accepted(struct peer *pe)
{
    nack_answered(pe);
    pe->flags &= (uint8_t)~PEER_NACKING;
    pe->rx_expect++;
    if (++pe->rx_unacked >= PTL_ACK_EVERY)
        acks_every = 1;
    owe(pe, PEER_ACK_OWED);
}

/* Queue a control message to `nid` from a free control pending; 0 if none is free. */
static int send_control(uint32_t type, uint32_t nid, uint32_t n)
{
    if (!ctrl_free)
        return 0;
    uint32_t i = 0;
    while (!(ctrl_free & (1u << i)))
        ++i;
    ctrl_free &= ~(1u << i);
    struct process *p = &generic_process;
    uint32_t id = PTL_PENDINGS + i;
    /* The header words a receiver reads; the rest of the upper half stays as the host
     * cleared it. */
    volatile uint32_t *up = (volatile uint32_t *)(uintptr_t)(p->upper_window + id * PTL_UPPER_BYTES);
    up[0] = type;
    up[PTL_HDR_DST_PID_OFFSET / 4u] = PTL_PID_FIRMWARE << 16;
    up[PTL_HDR_SEQ_OFFSET / 4u] = n << 16;  /* ack = n, seq unused */
    struct lower_pending *lp = &gbn_ctrl_pendings[i];
    lp->id = (uint16_t)id;
    lp->source = 0;       /* marks a control message (tx.c) */
    lp->addr_lo = nid;    /* a control message has no payload: its field holds the destination */
    lp->length = 0;
    lp->flags = 0;
    lp->seg_head = lp->seg_tail = SEG_NONE;
    lp->nsegs = 0;
    lp->state = PEND_TX_QUEUED;
    tx_queue_front(lp, lp);
    trace_val(n);
    return 1;
}

int gbn_progress(int idle)
{
    if (!owed_head)
        return 0;
    /* The common case, each pass after a message arrived: only ACKs owed, waiting for
     * a message back to carry them or for the core to go idle. */
    if (!nacks_owed && !acks_every && !idle)
        return 0;
    acks_every = 0;  /* set again below if an ACK at PTL_ACK_EVERY could not go */
    int progress = 0;
    /* A NACK goes out only while an RX pending and a source are free for its
     * retransmission (beyond those promised to NACKs already out). */
    uint32_t rx_free = PTL_RX_PENDINGS - generic_process.rx_in_use, src_free = sources_free();
    uint32_t room = rx_free < src_free ? rx_free : src_free;
    uint32_t budget = room > nacks_outstanding ? room - nacks_outstanding : 0u;
    uint32_t prev = 0;
    for (uint32_t ref = owed_head; ref;) {
        struct peer *pe = &gbn_peers[ref - 1u];
        uint32_t next = pe->owed_next;
        if (pe->flags & PEER_NACK_OWED) {
            if (budget && send_control(PTL_MSG_FW_NACK, ref - 1u, pe->rx_expect)) {
                pe->flags = (uint8_t)((pe->flags & ~(PEER_NACK_OWED | PEER_ACK_OWED)) | PEER_NACK_SENT);
                pe->rx_unacked = 0;
                nacks_owed--;
                nacks_outstanding++;
                budget--;
                NICCB_INC(nacks_sent);
                progress = 1;
            }
        } else if (pe->flags & PEER_ACK_OWED) {
            if ((pe->rx_unacked >= PTL_ACK_EVERY || idle) && send_control(PTL_MSG_FW_ACK, ref - 1u, pe->rx_expect)) {
                pe->flags &= (uint8_t)~PEER_ACK_OWED;
                pe->rx_unacked = 0;
                NICCB_INC(acks_sent);
                progress = 1;
            } else if (pe->rx_unacked >= PTL_ACK_EVERY) {
                acks_every = 1;  /* no control pending free: next pass */
            }
        }
        if (pe->flags & (PEER_NACK_OWED | PEER_ACK_OWED)) {
            prev = ref;
        } else {  /* nothing owed: off the list */
            pe->flags &= (uint8_t)~PEER_LISTED;
            if (prev)
                gbn_peers[prev - 1u].owed_next = (uint16_t)next;
            else
                owed_head = next;
            if (owed_tail == ref)
                owed_tail = prev;
        }
        ref = next;
    }
    return progress;
}

#else
/* ISO C forbids an empty translation unit. */
typedef int ptl_gbn_not_built;
#endif /* PTL_GBN */
