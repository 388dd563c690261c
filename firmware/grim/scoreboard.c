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
 */
#include "grim.h"

#include "niclab/fw/csr.h"

struct sb_entry scoreboard[GRIM_SCOREBOARD];
static uint32_t sb_head, sb_count;
static uint32_t resend_count;                 /* entries in SB_RESEND */
static uint64_t held_until[GRIM_MAX_NODES];   /* core cycles */

int scoreboard_full(void)
{
    return sb_count == GRIM_SCOREBOARD;
}

uint32_t scoreboard_next_token(void)
{
    return (sb_head + sb_count) % GRIM_SCOREBOARD;
}

uint32_t scoreboard_insert(const struct sb_entry *e)
{
    uint32_t token = (sb_head + sb_count) % GRIM_SCOREBOARD;
    scoreboard[token] = *e;
    ++sb_count;
    return token;
}

/* The token names a live entry that was sent to `src` with `seq`: otherwise the
 * control message is stale or forged, counted in bad_messages and ignored. */
static struct sb_entry *live(uint32_t src, uint32_t token, uint32_t seq)
{
    if (token >= GRIM_SCOREBOARD || (token - sb_head) % GRIM_SCOREBOARD >= sb_count) {
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

static void free_acknowledged(void)
{
    while (sb_count && scoreboard[sb_head].state == SB_ACKED) {
        struct sb_entry *e = &scoreboard[sb_head];
        if (e->lc == GRIM_MC_LC)
            mc_freed(e->end);                       /* the NI's own multicast queue */
        else
            grim_shared.lc[e->lc].sq_front = e->end;   /* the host may reuse the queue up to here */
        e->state = SB_FREE;
        sb_head = (sb_head + 1u) % GRIM_SCOREBOARD;
        --sb_count;
    }
}

void scoreboard_insert_done(const struct sb_entry *e)
{
    scoreboard[scoreboard_insert(e)].state = SB_ACKED;
    free_acknowledged();
}

void scoreboard_ack(uint32_t src, uint32_t token, uint32_t seq)
{
    struct sb_entry *e = live(src, token, seq);
    if (!e)
        return;
    COUNT(acks_received);
    e->state = SB_ACKED;
    free_acknowledged();
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
    free_acknowledged();
}

void scoreboard_nack(uint32_t src, uint32_t token, uint32_t seq)
{
    struct sb_entry *e = live(src, token, seq);
    if (!e)
        return;
    trace_val(GRIM_TP_NACK_RECEIVED);
    COUNT(nacks_received);
    const uint32_t lc = e->lc, dst_lc = e->dst_lc;
    /* Roll back: the receiver drops everything after the refused message until it
     * comes again, so every later one to the same pair goes again too. */
    for (uint32_t i = (token - sb_head) % GRIM_SCOREBOARD; i < sb_count; ++i) {
        struct sb_entry *x = &scoreboard[(sb_head + i) % GRIM_SCOREBOARD];
        if (x->state == SB_SENT && x->dst == src && x->lc == lc && x->dst_lc == dst_lc) {
            x->state = SB_RESEND;
            ++resend_count;
        }
    }
    held_until[src] = fw_mtime() + grim_shared.nack_backoff_cycles;
    trace_val(GRIM_TP_ROLLBACK);
}

int dest_held(uint32_t dst)
{
    return resend_count && held_until[dst] > fw_mtime();
}

int scoreboard_resend_pending(uint32_t dst, uint32_t lc, uint32_t dst_lc)
{
    if (!resend_count)
        return 0;
    for (uint32_t i = 0; i < sb_count; ++i) {
        const struct sb_entry *x = &scoreboard[(sb_head + i) % GRIM_SCOREBOARD];
        if (x->state == SB_RESEND && x->dst == dst && x->lc == lc && x->dst_lc == dst_lc)
            return 1;
    }
    return 0;
}

int scoreboard_retransmit(void)
{
    if (!resend_count || send_busy())
        return 0;
    const uint64_t now = fw_mtime();
    uint64_t wake = ~0ull;
    for (uint32_t i = 0; i < sb_count; ++i) {
        struct sb_entry *x = &scoreboard[(sb_head + i) % GRIM_SCOREBOARD];
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
        if (x->lc == GRIM_MC_LC)
            wire_store(x->offset, GRIM_W0((sb_head + i) % GRIM_SCOREBOARD, x->seq));
        send_start(x->offset, x->bytes, x->dst);
        x->state = SB_SENT;
        --resend_count;
        COUNT(retransmits);
        COUNT(sent);
        fw_timer_off();
        return 1;
    }
    /* Everything waits for a backoff: the timer wakes the loop when it ends. */
    fw_set_timer_at(wake);
    return 0;
}
