/*
 * Multicast by NI recycling (seed 004 §8.1.3-8.1.6, L2045-2085; the scheme and its
 * wire format are in grim_fw.h "Multicast"). One outgoing multicast logical channel
 * per NI (GRIM_MC_LC): a FIFO of entries in the SRAM the image leaves free, each the
 * message once with a forwarding tag naming its children (digest ambiguity 10: one
 * copy for all intended destinations, "marks the message with appropriate forwarding
 * information", L2067; a single channel never stores a message twice, L2055). The
 * children are sent one after the other from that copy, each a scoreboard entry of its
 * own under go-back-N with the multicast channel's per-hop sequence numbers, so a NACK
 * from one child resends to that child only (§8.1.6: "all network transactions ... use
 * per-hop reliable transmission", L2083).
 *
 * The copy from the receive ring (or the injecting LC's send queue, at the root) into
 * the multicast queue is made by the core, word by word: the thesis measured the
 * cards' on-card copy at 19 MB/s (LANai 4) and 66 MB/s (LANai 9) (L2085); here that
 * rate is a result of the modelled core, read from the trace points around the copy.
 *
 * A refusal (ticket not the expected one, no room for the copy or in a subscribed AM
 * queue) is a NACK: nothing is held, so a full NI never blocks its receive ring and
 * the down-only ordering of the trees (§8.1.3) keeps the recycling free of cycles. The
 * copies have a scoreboard of their own (scoreboard.c), so a refused injection of this
 * NI's host never keeps them, and so the queue, from being freed (L2053).
 */
#include "grim.h"

/* Linker symbols (link.ld): the first SRAM address the image leaves free. */
extern char __sram_free_start[];
extern char __sram_cached_base[];

#define MC_TAG_BYTES 8u   /* word 0: children | child0 << 8 | child1 << 16; word 1: wire bytes */
#define MC_ENTRY_BYTES(wire) ((MC_TAG_BYTES + (wire) + GRIM_QUEUE_ALIGN - 1u) & ~(GRIM_QUEUE_ALIGN - 1u))
#define MC_ENTRY_MAX MC_ENTRY_BYTES(GRIM_HEADER_BYTES + GRIM_MTU + 3u)

static uint32_t mcq, mcq_bytes;                 /* the queue: SRAM offset, size (a power of two) */
static uint32_t mcq_back, mcq_next, mcq_front;  /* monotonic: appended, next to send, freed */
static uint32_t mcq_sent;                       /* children the entry at mcq_next went to */

/* The main loop's bit: copies wait in the queue. */
static inline void mcq_pending(void)
{
    if (mcq_back != mcq_next)
        sends_pending |= PENDING_MC;
    else
        sends_pending &= ~PENDING_MC;
}

void mc_boot(void)
{
    /* The free SRAM between the image and the lowest host send queue (or the
     * firmware's buffers): the largest power of two there. */
    const uint32_t start = ((uint32_t)(__sram_free_start - __sram_cached_base) + GRIM_QUEUE_ALIGN - 1u) & ~(GRIM_QUEUE_ALIGN - 1u);
    uint32_t end = grim_shared.buffer_offset;
    for (uint32_t i = 0; i < GRIM_MAX_LCS; ++i) {
        const volatile struct grim_lc *L = &grim_shared.lc[i];
        if (L->enabled && L->sq_offset >= start && L->sq_offset < end)
            end = L->sq_offset;
    }
    uint32_t size = 1u << 30;
    while (size && size > end - start)
        size >>= 1;
    if (end <= start || size < MC_ENTRY_MAX)
        fw_panic("no SRAM left between the image and the send queues for the multicast queue (one MTU message)");
    mcq = start;
    mcq_bytes = size;
    mcq_back = mcq_next = mcq_front = mcq_sent = 0;
    mcq_pending();
}

void mc_freed(uint32_t end)
{
    mcq_front = end;
}

/* The on-card copy (L2085), by the core: eight words a turn. */
static void core_copy(uint32_t dst, uint32_t src, uint32_t bytes)
{
    volatile uint32_t *d = sram_word(dst);
    const volatile uint32_t *s = sram_word(src);
    uint32_t n = bytes / 4u;
    for (; n >= 8u; n -= 8u, d += 8, s += 8) {
        const uint32_t a = s[0], b = s[1], c = s[2], e = s[3], f = s[4], g = s[5], h = s[6], i = s[7];
        d[0] = a; d[1] = b; d[2] = c; d[3] = e; d[4] = f; d[5] = g; d[6] = h; d[7] = i;
    }
    while (n--)
        *d++ = *s++;
}

/* Room for an entry of `entry` bytes; *skip: bytes left at the queue's end it cannot use. */
static int mcq_room(uint32_t entry, uint32_t *skip)
{
    const uint32_t pos = mcq_back & (mcq_bytes - 1u);
    *skip = pos + entry > mcq_bytes ? mcq_bytes - pos : 0u;
    return mcq_bytes - (mcq_back - mcq_front) >= entry + *skip;
}

/* Appends the message at `off` (`wire` bytes) for `targets`, as a hop with `ticket`. */
static void mcq_append(uint32_t off, uint32_t wire, uint32_t ntargets, const uint32_t *target, uint32_t ticket, uint32_t skip)
{
    if (skip) {
        *sram_word(mcq + (mcq_back & (mcq_bytes - 1u))) = GRIM_WRAP_MARK;
        mcq_back += skip;
    }
    const uint32_t at = mcq + (mcq_back & (mcq_bytes - 1u));
    *sram_word(at) = ntargets | (target[0] << 8) | ((ntargets > 1u ? target[1] : 0u) << 16);
    *sram_word(at + 4u) = wire;
    trace_val(GRIM_TP_MC_COPY);
    core_copy(at + MC_TAG_BYTES, off, wire);
    trace_val(GRIM_TP_MC_COPIED);
    grim_shared.counters.mc_copied_bytes += wire;
    /* The forwarding marks: a hop of the multicast channel, the ticket (grim_fw.h). */
    const uint32_t h = at + MC_TAG_BYTES;
    const uint32_t w1 = wire_load(h + 4u), w3 = wire_load(h + 12u);
    wire_store(h + 4u, (w1 & ~0xFu) | GRIM_MC_LC);
    wire_store(h + 8u, GRIM_W2(GRIM_W2_WORDS(wire_load(h + 8u)), GRIM_ENDPOINT(0u, GRIM_MC_LC)));
    wire_store(h + 12u, GRIM_W3(ticket, GRIM_W3_HANDLER(w3)));
    mcq_back += MC_ENTRY_BYTES(wire);
    mcq_pending();
}

int mc_send(void)
{
    if (mcq_next == mcq_back || send_busy() || scoreboard_full(SB_MC))
        return 0;
    const uint32_t pos = mcq_next & (mcq_bytes - 1u);
    const uint32_t at = mcq + pos;
    const uint32_t tag = *sram_word(at);
    if (tag == GRIM_WRAP_MARK) {
        mcq_next += mcq_bytes - pos;
        mcq_pending();
        return 1;
    }
    const uint32_t n = tag & 0xFFu, wire = *sram_word(at + 4u);
    const uint32_t dst = (tag >> (8u + 8u * mcq_sent)) & 0xFFu;
    if (dest_held(dst) || scoreboard_resend_pending(dst, GRIM_MC_LC, GRIM_MC_LC))
        return 0;  /* that child's rolled-back copies go first; the queue keeps its order */
    const uint32_t last = mcq_sent + 1u == n;
    struct sb_entry e;
    e.offset = at + MC_TAG_BYTES;
    e.bytes = wire;
    /* The entry is freed with its last child's copy (earlier ones free nothing). */
    e.end = last ? mcq_next + MC_ENTRY_BYTES(wire) : mcq_next;
    e.dst = (uint16_t)dst;
    e.lc = (uint8_t)GRIM_MC_LC;
    e.dst_lc = (uint8_t)GRIM_MC_LC;
    e.seq = (uint8_t)lc_take_seq(dst, GRIM_MC_LC, GRIM_MC_LC);
    e.state = SB_SENT;
    wire_store(e.offset, GRIM_W0(scoreboard_next_token(SB_MC), e.seq));
    send_start(e.offset, wire, dst);
    trace_val(GRIM_TP_MC_FORWARD);
    scoreboard_insert(SB_MC, &e);
    COUNT(sent);
    COUNT(mc_forwarded);
    if (last) {
        mcq_sent = 0;
        mcq_next += MC_ENTRY_BYTES(wire);
        mcq_pending();
    } else {
        ++mcq_sent;
    }
    return 1;
}

/* The new tree's NI list (grim_fw.h): this NI's place in it, or -1. */
static int list_index(uint32_t payload, uint32_t count, uint32_t self)
{
    for (uint32_t i = 0; i < count; ++i)
        if (GRIM_MC_MEMBER_NODE(*sram_word(payload + 8u + 4u * i)) == self)
            return (int)i;
    return -1;
}

int mc_process(const struct grim_header *h, uint32_t off, uint32_t wire)
{
    trace_val(GRIM_TP_MC_RECEIVED);
    const uint32_t self = grim_shared.node;
    const uint32_t type = GRIM_W1_TYPE(h->w[1]);
    const uint32_t tree = (h->w[1] >> 16) & 0xFFu;
    const int hop = GRIM_EP_LC(GRIM_W1_SRC_EP(h->w[1])) == GRIM_MC_LC;
    volatile struct grim_mc_tree *t = &grim_shared.mc[tree];
    const int update = type == GRIM_T_MC_UPDATE;

    /* An update's list: its size and this NI's entry in it. */
    const uint32_t payload = off + GRIM_HEADER_BYTES;
    uint32_t count = 0, epoch = 0, mine = 0;
    int idx = -1;
    if (update) {
        if (wire < GRIM_HEADER_BYTES + 8u)
            return MC_BAD;
        epoch = *sram_word(payload);
        count = *sram_word(payload + 4u);
        if (count > GRIM_MAX_NODES || wire < GRIM_HEADER_BYTES + 8u + 4u * count)
            return MC_BAD;
        idx = list_index(payload, count, self);
        if (idx >= 0)
            mine = *sram_word(payload + 8u + 4u * (uint32_t)idx);
    }

    /* The ticket: the root labels an injection (§8.1.5 L2075); a hop must carry the
     * one this NI expects for the tree. */
    uint32_t ticket;
    int duplicate = 0;
    if (!hop) {
        const int new_root = update && count && idx == 0 && !t->root;
        if (!t->root && !new_root) {
            COUNT(mc_misrouted);
            return MC_MISROUTED;
        }
        ticket = t->root ? t->next_ticket : t->expected;
    } else {
        ticket = GRIM_W3_TICKET(h->w[3]);
        int ok;
        if (update) {
            /* The handed-over update comes back to a former root down the new tree. */
            duplicate = t->epoch == epoch && ticket == (uint16_t)(t->expected - 1u);
            ok = duplicate || ticket == t->expected || (idx >= 0 && !GRIM_MC_MEMBER_WAS(mine));
        } else {
            ok = t->member && ticket == t->expected;
        }
        if (!ok) {
            COUNT(mc_ticket_refused);
            return MC_REFUSED;
        }
    }
    trace_val(GRIM_TP_MC_TICKET);

    /* Where it goes: local LCs and child NIs. */
    uint32_t target[2], ntargets = 0, mask = 0;
    if (update) {
        if (!hop && count && idx != 0) {
            target[ntargets++] = GRIM_MC_MEMBER_NODE(*sram_word(payload + 8u));  /* hand over to the new root */
        } else if (idx >= 0) {
            for (uint32_t c = 2u * (uint32_t)idx + 1u; c <= 2u * (uint32_t)idx + 2u && c < count; ++c)
                target[ntargets++] = GRIM_MC_MEMBER_NODE(*sram_word(payload + 8u + 4u * c));
        }
    } else {
        ntargets = t->children;
        target[0] = t->child[0];
        target[1] = t->child[1];
        mask = t->lc_mask;
    }

    /* Room for all of it, or refuse (NACK; at the root: wait in the LC). */
    uint32_t skip = 0;
    if (ntargets && !mcq_room(MC_ENTRY_BYTES(wire), &skip)) {
        COUNT(mc_refused_full);
        return MC_REFUSED;
    }
    for (uint32_t lc = 0; lc < GRIM_MAX_LCS; ++lc)
        if ((mask >> lc & 1u) && !deliver_am_room(lc)) {
            COUNT(mc_refused_full);
            return MC_REFUSED;
        }

    if (update && !duplicate) {
        t->epoch = epoch;
        t->member = idx >= 0;
        t->root = idx == 0;
        t->lc_mask = idx >= 0 ? (uint8_t)GRIM_MC_MEMBER_MASK(mine) : 0u;
        uint32_t kids = 0;
        for (uint32_t c = 2u * (uint32_t)idx + 1u; idx >= 0 && c <= 2u * (uint32_t)idx + 2u && c < count; ++c)
            t->child[kids++] = (uint8_t)GRIM_MC_MEMBER_NODE(*sram_word(payload + 8u + 4u * c));
        t->children = (uint8_t)kids;
        COUNT(mc_updates);
        trace_val(GRIM_TP_MC_UPDATE);
    }
    if (!duplicate) {
        t->expected = (uint16_t)(ticket + 1u);
        if (t->root)
            t->next_ticket = (uint16_t)(ticket + 1u);
    }
    if (ntargets) {
        mcq_append(off, wire, ntargets, target, ticket, skip);
        mc_send();  /* the first child's send runs while the host DMAs below */
    }
    for (uint32_t lc = 0; lc < GRIM_MAX_LCS; ++lc)
        if (mask >> lc & 1u) {
            deliver_am_lc(lc, off, wire);
            COUNT(mc_delivered);
            trace_val(GRIM_TP_MC_LOCAL);
        }
    return MC_ACCEPTED;
}
