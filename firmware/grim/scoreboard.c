/*
 * The scoreboard of in-flight messages (§4.2.2, Fig. 4.4) and go-back-N (§4.2.1).
 * Messages sit append-style in their logical channel's send queue; the scoreboard
 * records each transmitted one in send order, at a fixed slot whose index is the
 * message's NI token. An ACK marks its message acknowledged and frees, from the
 * oldest, every acknowledged message up to the first that is not. A NACK rolls back
 * only the refused message's destination and channel pair (the 3-D sequence arrays
 * of §4.3.2): it and every later message to the same pair are sent again, in order,
 * with their sequence numbers; other destinations go on.
 *
 * "Retransmits the message at a later time" (L1107) is not timed in the thesis
 * (digest ambiguity 9): the destination is held for the driver's
 * nack_backoff_cycles, so a receiver whose host is not draining its queue is not
 * flooded with the same message.
 *
 * The retransmission timer: a message that draws no answer (ACK, NACK or ERROR)
 * within the driver's resend_timeout_cycles is rolled back like a NACKed one. The
 * thesis's GRIM has none, trusting Myrinet not to lose messages (L1012), and says a
 * network that drops them needs "timeout mechanisms [that] automatically retransmit
 * data and control messages" (L1018, §9.2.2 L2226). Here a packet whose CRC fails is
 * dropped with its message (recv.c), and a lost ACK, NACK or last message would
 * otherwise leave its sender waiting for ever. One timer for the NI: each entry
 * keeps when it last went; the timer runs while the NI is idle with messages in
 * flight and, when due, looks at the oldest one still unanswered (assumption: a
 * later pair's loss is found when the pairs before it are answered, at most a
 * timeout later). The timer is looked at only when the main loop has nothing else
 * to do, so a message's path costs one mtime read. After resend_limit timeouts of
 * the same message the NI gives up its pair's unanswered messages and tells the
 * host (GRIM_ERR_UNDELIVERABLE), so none is lost silently.
 *
 * Two scoreboards, each freeing in order: one for the host's logical channels and one
 * for the NI's multicast recycle channel (GRIM_MC_LC; its tokens follow the first's).
 * §8.1.3 (L2053) makes GRIM's multicast deadlock-free by keeping injected messages in
 * the endpoint's own logical channel, apart from the recycled ones, so that "incoming
 * multicast messages cannot be recycled into this buffer" and nothing recycled waits on
 * an injection. One scoreboard freeing in order would join them again: an injection the
 * tree's root refuses (its multicast queue full) would sit at the head and keep this
 * NI's later recycled copies, acknowledged, from freeing the multicast queue; this NI
 * then refuses the root's hops, the root's queue never drains, and it refuses the
 * injection for ever (an inner member injecting into its own tree did exactly that).
 * Apart, a recycled copy waits only on copies to NIs with larger ids (§8.1.3's down-only
 * trees) and on local AM queues. Go-back-N is unchanged: a (destination, source LC,
 * destination LC) pair lives in one of the two, in its send order.
 */
#include "grim.h"

#include "niclab/fw/csr.h"

struct sb_entry scoreboard[SB_RINGS * GRIM_SCOREBOARD];  /* ring r: tokens r * GRIM_SCOREBOARD + slot */
static struct {
    uint32_t head, count;  /* the oldest entry's slot, entries in flight */
} sb[SB_RINGS];
static uint32_t resend_count;                 /* entries in SB_RESEND, both rings */
static uint64_t held_until[GRIM_MAX_NODES];   /* core cycles */
#define NEVER (~0ull)
static uint64_t backoff_wake = NEVER;         /* the end of a NACK backoff everything waits for */
static uint64_t timeout_at = NEVER;           /* the retransmission timer; NEVER: not running */

static inline uint32_t ring_of(uint32_t lc)
{
    return lc == GRIM_MC_LC ? SB_MC : SB_HOST;
}

/* The entry `i` places after ring r's oldest, and its token. */
static inline uint32_t token_at(uint32_t r, uint32_t i)
{
    return r * GRIM_SCOREBOARD + (sb[r].head + i) % GRIM_SCOREBOARD;
}
static inline struct sb_entry *entry_at(uint32_t r, uint32_t i)
{
    return &scoreboard[token_at(r, i)];
}

static inline uint32_t mtime_lo(void)
{
    return fw_ctrl_read(NICLAB_CTRL_MTIME_LO);  /* wraps after 2^32 cycles: differences only */
}

/* The core has one timer compare: the earlier of the backoff's end and the timeout. */
static void timer_arm(void)
{
    fw_set_timer_at(backoff_wake < timeout_at ? backoff_wake : timeout_at);
}

int scoreboard_full(uint32_t r)
{
    return sb[r].count == GRIM_SCOREBOARD;
}

uint32_t scoreboard_next_token(uint32_t r)
{
    return token_at(r, sb[r].count);
}

uint32_t scoreboard_insert(uint32_t r, const struct sb_entry *e)
{
    const uint32_t token = scoreboard_next_token(r);
    scoreboard[token] = *e;
    scoreboard[token].sent_at = mtime_lo();
    scoreboard[token].timeouts = 0;
    ++sb[r].count;
    return token;
}

/* The token names a live entry that was sent to `src` with `seq`: otherwise the
 * control message is stale or forged, counted in bad_messages and ignored. */
static struct sb_entry *live(uint32_t src, uint32_t token, uint32_t seq)
{
    const uint32_t r = token / GRIM_SCOREBOARD;
    if (r >= SB_RINGS || (token % GRIM_SCOREBOARD - sb[r].head) % GRIM_SCOREBOARD >= sb[r].count) {
        COUNT(bad_messages);
        return 0;
    }
    struct sb_entry *e = &scoreboard[token];
    if (e->state != SB_SENT || e->dst != src || e->seq != (uint8_t)seq) {
        COUNT(bad_messages);
        return 0;
    }
    return e;
}

/* Frees ring r's acknowledged entries from its oldest up to the first that is not. */
static void free_acknowledged(uint32_t r)
{
    while (sb[r].count && scoreboard[r * GRIM_SCOREBOARD + sb[r].head].state == SB_ACKED) {
        struct sb_entry *e = &scoreboard[r * GRIM_SCOREBOARD + sb[r].head];
        if (r == SB_MC)
            mc_freed(e->end);                       /* the NI's own multicast queue */
        else
            grim_shared.lc[e->lc].sq_front = e->end;   /* the host may reuse the queue up to here */
        e->state = SB_FREE;
        sb[r].head = (sb[r].head + 1u) % GRIM_SCOREBOARD;
        --sb[r].count;
    }
    if (!sb[SB_HOST].count && !sb[SB_MC].count)
        timeout_at = NEVER;  /* armed afresh when the next message is in flight and the NI idle */
}

void scoreboard_insert_done(const struct sb_entry *e)
{
    scoreboard[scoreboard_insert(SB_HOST, e)].state = SB_ACKED;  /* a host LC's (lc_send.c) */
    free_acknowledged(SB_HOST);
}

void scoreboard_ack(uint32_t src, uint32_t token, uint32_t seq)
{
    struct sb_entry *e = live(src, token, seq);
    if (!e)
        return;
    COUNT(acks_received);
    e->state = SB_ACKED;
    free_acknowledged(token / GRIM_SCOREBOARD);
}

/* The target refused a remote memory message (memory it never registered): the
 * message is done -- sending it again would be refused again -- and the host is told
 * which one (its type and W4, read back from the send queue). */
void scoreboard_error(uint32_t src, uint32_t token, uint32_t seq)
{
    struct sb_entry *e = live(src, token, seq);
    if (!e)
        return;
    COUNT(remote_errors);
    if (e->lc != GRIM_MC_LC)  /* a multicast hop has no host to tell */
        rm_report_error(e->lc, GRIM_W1_TYPE(wire_load(e->offset + 4u)), src, wire_load(e->offset + 16u));
    e->state = SB_ACKED;
    free_acknowledged(token / GRIM_SCOREBOARD);
}

/* Roll back ring r from the entry at position `from` (from its oldest): the receiver
 * drops everything after a refused or lost message until it comes again, so every
 * later one to the same destination and channel pair goes again too (a pair lives in
 * one ring). */
static void rollback(uint32_t r, uint32_t from)
{
    const struct sb_entry *e = entry_at(r, from);
    const uint32_t dst = e->dst, lc = e->lc, dst_lc = e->dst_lc;
    for (uint32_t i = from; i < sb[r].count; ++i) {
        struct sb_entry *x = entry_at(r, i);
        if (x->state == SB_SENT && x->dst == dst && x->lc == lc && x->dst_lc == dst_lc) {
            x->state = SB_RESEND;
            ++resend_count;
        }
    }
}

void scoreboard_nack(uint32_t src, uint32_t token, uint32_t seq)
{
    struct sb_entry *e = live(src, token, seq);
    if (!e)
        return;
    trace_val(GRIM_TP_NACK_RECEIVED);
    COUNT(nacks_received);
    const uint32_t r = token / GRIM_SCOREBOARD;
    rollback(r, (token % GRIM_SCOREBOARD - sb[r].head) % GRIM_SCOREBOARD);
    held_until[src] = fw_mtime() + grim_shared.nack_backoff_cycles;
    trace_val(GRIM_TP_ROLLBACK);
}

/* The receiver lost the message of the pair before `token`'s with sequence number
 * `expected`: go back to it now (no backoff: the receiver has room, it lost one).
 * Nothing to do if that one is answered or already going again. */
void scoreboard_gap(uint32_t src, uint32_t token, uint32_t seq, uint32_t expected)
{
    struct sb_entry *e = live(src, token, seq);
    if (!e)
        return;
    COUNT(nacks_received);
    const uint32_t r = token / GRIM_SCOREBOARD;
    for (uint32_t i = 0; i < sb[r].count; ++i) {
        const struct sb_entry *x = entry_at(r, i);
        if (x->state == SB_SENT && x->dst == src && x->lc == e->lc && x->dst_lc == e->dst_lc && x->seq == (uint8_t)expected) {
            trace_val(GRIM_TP_ROLLBACK);
            rollback(r, i);
            return;
        }
    }
}

int dest_held(uint32_t dst)
{
    return resend_count && held_until[dst] > fw_mtime();
}

int scoreboard_resend_pending(uint32_t dst, uint32_t lc, uint32_t dst_lc)
{
    if (!resend_count)
        return 0;
    const uint32_t r = ring_of(lc);
    for (uint32_t i = 0; i < sb[r].count; ++i) {
        const struct sb_entry *x = entry_at(r, i);
        if (x->state == SB_RESEND && x->dst == dst && x->lc == lc && x->dst_lc == dst_lc)
            return 1;
    }
    return 0;
}

/* Recycled copies first (they drain the NI, as in the main loop), then the host's;
 * oldest first within each. */
int scoreboard_retransmit(void)
{
    if (!resend_count || send_busy())
        return 0;
    const uint64_t now = fw_mtime();
    uint64_t wake = ~0ull;
    for (uint32_t k = 0; k < SB_RINGS; ++k) {
        const uint32_t r = SB_RINGS - 1u - k;
        for (uint32_t i = 0; i < sb[r].count; ++i) {
            struct sb_entry *x = entry_at(r, i);
            if (x->state != SB_RESEND)
                continue;
            if (held_until[x->dst] > now) {
                /* The oldest rolled-back message of a held destination keeps its later
                 * ones (same destination) behind it; others may go. */
                if (held_until[x->dst] < wake)
                    wake = held_until[x->dst];
                continue;
            }
            /* W0 still holds the token and sequence it was stamped with -- except in the
             * multicast queue, where one copy goes to each child with its own. */
            if (r == SB_MC)
                wire_store(x->offset, GRIM_W0(token_at(r, i), x->seq));
            send_start(x->offset, x->bytes, x->dst);
            x->state = SB_SENT;
            x->sent_at = mtime_lo();
            --resend_count;
            COUNT(retransmits);
            if (r == SB_HOST)
                ++grim_shared.lc[x->lc].resent;  /* per channel: a NACK rolls back its pair only (L1093) */
            COUNT(sent);
            backoff_wake = NEVER;
            timer_arm();
            return 1;
        }
    }
    /* Everything waits for a backoff: the timer wakes the loop when it ends. */
    backoff_wake = wake;
    timer_arm();
    return 0;
}

/* The pair of ring r's entry at position `from` does not answer: its unanswered
 * messages are done with, each counted, and the host is told of the first. */
static void give_up(uint32_t r, uint32_t from)
{
    const struct sb_entry *e = entry_at(r, from);
    const uint32_t dst = e->dst, lc = e->lc, dst_lc = e->dst_lc;
    if (lc != GRIM_MC_LC)  /* a multicast hop has no host to tell */
        rm_report_error(lc, GRIM_ERR_UNDELIVERABLE | GRIM_W1_TYPE(wire_load(e->offset + 4u)), dst, wire_load(e->offset + 16u));
    for (uint32_t i = from; i < sb[r].count; ++i) {
        struct sb_entry *x = entry_at(r, i);
        if ((x->state == SB_SENT || x->state == SB_RESEND) && x->dst == dst && x->lc == lc && x->dst_lc == dst_lc) {
            if (x->state == SB_RESEND)
                --resend_count;
            x->state = SB_ACKED;
            COUNT(undeliverable);
        }
    }
    free_acknowledged(r);
}

static inline int timer_due(void)
{
    return (fw_csr_read(mip) & (1u << 7)) != 0;  /* MTIP: mtime has reached the compare */
}

int scoreboard_idle(void)
{
    const uint32_t period = grim_shared.resend_timeout_cycles;
    if (!period)
        return 0;
    if (!resend_count)
        backoff_wake = NEVER;  /* nothing waits for a backoff any more */
    if (timeout_at == NEVER) {
        if (sb[SB_HOST].count || sb[SB_MC].count) {
            timeout_at = fw_mtime() + period;
            timer_arm();
        } else if (timer_due()) {
            timer_arm();  /* a deadline left by messages since answered: off */
        }
        return 0;
    }
    if (!timer_due())
        return 0;
    const uint64_t now = fw_mtime();
    if (now < timeout_at) {
        timer_arm();  /* the backoff's end (scoreboard_retransmit's), or a stale one */
        return 0;
    }
    /* Each ring's oldest unanswered entry: the one due is rolled back (or given up). */
    int progress = 0;
    uint64_t next = now + period;
    for (uint32_t r = 0; r < SB_RINGS; ++r) {
        uint32_t i = 0;
        while (i < sb[r].count && entry_at(r, i)->state != SB_SENT)
            ++i;
        if (i == sb[r].count)
            continue;
        struct sb_entry *e = entry_at(r, i);
        const uint32_t age = (uint32_t)now - e->sent_at;
        if (age < period) {
            if (now + (period - age) < next)
                next = now + (period - age);  /* the oldest unanswered one is not due yet */
        } else {
            trace_val(GRIM_TP_TIMEOUT);
            COUNT(timeouts);
            if (grim_shared.resend_limit && ++e->timeouts > grim_shared.resend_limit)
                give_up(r, i);
            else
                rollback(r, i);
            progress = 1;
        }
    }
    timeout_at = sb[SB_HOST].count || sb[SB_MC].count ? next : NEVER;
    timer_arm();
    return progress;
}
