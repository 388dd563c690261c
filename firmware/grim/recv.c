/*
 * The receiving NI (§4.2.1, Table 5.1's receiving steps): messages arrive whole in
 * the receive ring (lanai.h), in arrival order. Each is decoded; a control message
 * goes to the scoreboard; a data message must carry the sequence number expected
 * for its (source NI, source LC, destination LC) (the incoming 3-D array of §4.3.2)
 * and find room at its destination endpoint. In sequence and with room it is
 * delivered to the host and then ACKed ("transmitted to the sender after the data
 * message is transferred to the endpoint", L1338). In sequence without room it is
 * dropped and NACKed (L1107). Out of sequence -- a later message behind a refused
 * one -- it is dropped without a NACK: the sender's rollback already covers it
 * (digest ambiguity 9: one NACK per refusal, not one per dropped message).
 * Remote memory by virtual address (rm.c) may have to wait for a translation: the
 * message is then held at the head of the ring, which keeps every later arrival
 * behind it (RM→RM and RM→AM stay in order, §4.5.6), and resumed on later passes.
 * An RM-RV reply is not sequenced: it is the ACK of its request (§4.5.4).
 *
 * Link errors: a message a packet of which failed its CRC (the receive engine marks
 * its descriptor, lanai.h) is dropped whole and not answered: its header cannot be
 * trusted. The sender sends it again with the messages after it, which this NI drops
 * as out of sequence: at once when the next of them makes this NI answer GRIM_T_GAP
 * (once per gap, when nothing was refused before it), else when its retransmission
 * timer runs out (scoreboard.c: a lost last message or GAP). A message seen again
 * after it was accepted (its ACK was lost) is answered again as it was the first
 * time (ACK, or ERROR for the last refused one of its pair), not delivered again; an
 * RM-RV request seen again is served again (its reply was lost; reading changes
 * nothing). A message is "seen again" when its sequence number is at most a
 * scoreboard's worth behind the expected one.
 */
#include "grim.h"

static uint32_t ring, ring_bytes, head;
static uint32_t pos;  /* head's place in the ring: head % ring_bytes without a division */
static uint8_t in_seq[GRIM_MAX_NODES][GRIM_SEQ_LCS][GRIM_SEQ_LCS];  /* + the multicast channel */
/* Per pair, 0x100 | the sequence number of the last message refused with ERROR, so
 * that message seen again is refused again (0: none). */
static uint16_t error_seq[GRIM_MAX_NODES][GRIM_SEQ_LCS][GRIM_SEQ_LCS];
/* Per pair, 0x100 | the sequence number last NACKed or reported lost (GRIM_T_GAP):
 * later messages dropped behind it are not reported again (digest ambiguity 9). */
static uint16_t nacked_seq[GRIM_MAX_NODES][GRIM_SEQ_LCS][GRIM_SEQ_LCS];
/* The remote memory message held at the head of the ring, waiting in rm.c. */
static struct {
    uint32_t active, src, used;
    uint32_t again;  /* an RM-RV request served again: the sequence stays */
    struct grim_header h;
} held;
static uint32_t again;  /* the message being processed was seen before */

void recv_boot(void)
{
    const uint32_t control = grim_shared.buffer_offset;
    const uint32_t staging = control + CONTROL_SRAM_BYTES;   /* STAGING_BYTES: 3 x 16 used */
    control_boot(control);
    deliver_boot(staging);
    xlate_boot(staging + 16u);
    rm_boot(staging + STAGING_BYTES, staging + 32u);
    held.active = 0;
    ring = staging + STAGING_BYTES + RM_REPLY_SRAM_BYTES;
    ring_bytes = (grim_shared.sram_bytes - ring) & ~15u;
    head = pos = 0;
#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH
    *(volatile uint32_t *)(uintptr_t)(LANAI_RECV_BASE + LANAI_RECV_PROGRESS_IRQ) = 1;  /* wake at every packet */
#endif
    engines_boot(ring, ring_bytes);
}

/* A remote memory message has run to its end (done or refused). */
static void rm_finished(const struct grim_header *h, uint32_t src, int outcome)
{
    const uint32_t type = GRIM_W1_TYPE(h->w[1]);
    const uint32_t token = GRIM_W0_TOKEN(h->w[0]), seq = GRIM_W0_SEQ(h->w[0]);
    const uint32_t src_lc = GRIM_EP_LC(GRIM_W1_SRC_EP(h->w[1]));
    if (type == GRIM_T_RM_RV_REPLY) {
        /* Our own read: done either way; a local address we cannot reach is ours to report. */
        if (outcome == RM_REFUSED)
            rm_report_error(GRIM_W3_LC(h->w[3]), GRIM_T_RM_RV, GRIM_EP_NODE(GRIM_W2_DST_EP(h->w[2])), rm_fault_va());
        else
            COUNT(rm_read_replies);
        scoreboard_ack(src, token, seq);
        return;
    }
    const uint32_t dst_lc = GRIM_EP_LC(GRIM_W2_DST_EP(h->w[2]));
    if (!again) {
        ++in_seq[src][src_lc][dst_lc];
        COUNT(received);
    }
    if (outcome == RM_REFUSED) {
        error_seq[src][src_lc][dst_lc] = (uint16_t)(0x100u | seq);
        control_post(src, GRIM_T_ERROR, token, seq, src_lc);
    }
    else if (type == GRIM_T_RM_V) {
        COUNT(rm_delivered);
        control_post(src, GRIM_T_ACK, token, seq, src_lc);
    }
    /* an RM-RV request is answered by its reply (rm.c) */
}

/* 1: consumed; 0: held (a remote memory message waits in rm.c). */
static int data_message(uint32_t src, uint32_t off, uint32_t bytes, uint32_t w0)
{
    struct grim_header h;
    h.w[0] = w0;
    wire_read_header(off + 4u, (struct grim_header *)&h.w[1], GRIM_HEADER_WORDS - 1u);
    const uint32_t type = GRIM_W1_TYPE(h.w[1]);
    const uint32_t src_lc = GRIM_EP_LC(GRIM_W1_SRC_EP(h.w[1]));
    const uint32_t dst_lc = GRIM_EP_LC(GRIM_W2_DST_EP(h.w[2]));
    if (type < GRIM_T_AM || type > GRIM_T_MC_UPDATE || src >= GRIM_MAX_NODES || src_lc > GRIM_MC_LC ||
        dst_lc > GRIM_MC_LC || (dst_lc == GRIM_MC_LC && type < GRIM_T_MC) ||
        GRIM_HEADER_BYTES + GRIM_W2_WORDS(h.w[2]) * 4u != bytes) {
        COUNT(bad_messages);
        return 1;
    }
    trace_val(GRIM_TP_SEQUENCE);
    const uint32_t seq = GRIM_W0_SEQ(w0), token = GRIM_W0_TOKEN(w0);
    again = 0;
    if (type != GRIM_T_RM_RV_REPLY && seq != in_seq[src][src_lc][dst_lc]) {
        const uint32_t expected = in_seq[src][src_lc][dst_lc];
        if ((uint8_t)(expected - seq) > GRIM_SCOREBOARD) {
            COUNT(out_of_order);  /* ahead: behind a refused or lost one */
            if (nacked_seq[src][src_lc][dst_lc] != (0x100u | expected)) {
                nacked_seq[src][src_lc][dst_lc] = (uint16_t)(0x100u | expected);
                control_post_gap(src, token, seq, src_lc, expected);  /* nothing refused: it was lost */
            }
            return 1;
        }
        COUNT(duplicates);
        if (type != GRIM_T_RM_RV) {
            control_post(src, error_seq[src][src_lc][dst_lc] == (0x100u | seq) ? GRIM_T_ERROR : GRIM_T_ACK, token, seq, src_lc);
            return 1;
        }
        again = 1;
    }
    if (type >= GRIM_T_MC) {  /* GRIM_T_MC or GRIM_T_MC_UPDATE (checked above) */
        /* Ticket and capacity (multicast.c); the hop is ACKed like any message. */
        const int r = mc_process(&h, off, bytes);
        if (r == MC_REFUSED) {
            nacked_seq[src][src_lc][dst_lc] = (uint16_t)(0x100u | seq);
            control_post(src, GRIM_T_NACK, token, seq, src_lc);
            return 1;
        }
        if (r == MC_BAD)
            COUNT(bad_messages);
        ++in_seq[src][src_lc][dst_lc];
        COUNT(received);
        control_post(src, r == MC_MISROUTED ? GRIM_T_ERROR : GRIM_T_ACK, token, seq, src_lc);
        return 1;
    }
    trace_val(GRIM_TP_CAPACITY);
    if (!deliver_capacity(&h)) {
        nacked_seq[src][src_lc][dst_lc] = (uint16_t)(0x100u | seq);
        control_post(src, GRIM_T_NACK, token, seq, src_lc);
        return 1;
    }
    if (type >= GRIM_T_RM_V) {
        const int r = rm_start(&h, src, off);
        if (r == RM_WAIT) {
            held.active = 1;
            held.src = src;
            held.again = again;
            held.h = h;
            return 0;
        }
        rm_finished(&h, src, r);
        return 1;
    }
    deliver(&h, off, bytes);
    ++in_seq[src][src_lc][dst_lc];
    COUNT(received);
    control_post(src, GRIM_T_ACK, token, seq, src_lc);
    return 1;
}

/* The slot at the head is done with: clear its flags so a later lap of the ring
 * cannot mistake the old descriptor for a new one, and give the room back. */
static inline __attribute__((always_inline)) void consume(uint32_t desc, uint32_t used)
{
    *sram_word(desc + 4u * LANAI_RECV_DESC_FLAGS) = 0;
    head += used;
    pos += used;
    if (pos == ring_bytes)  /* claims never cross the ring's end */
        pos = 0;
    *(volatile uint32_t *)(uintptr_t)(LANAI_RECV_BASE + LANAI_RECV_HEAD) = head;
}

void recv_crc_drop(uint32_t desc, uint32_t used)
{
    trace_val(GRIM_TP_CRC_DROP);
    COUNT(crc_drops);
    consume(desc, used);
}

#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH
uint32_t recv_expected_seq(uint32_t src, const struct grim_header *h)
{
    return in_seq[src][GRIM_EP_LC(GRIM_W1_SRC_EP(h->w[1]))][GRIM_EP_LC(GRIM_W2_DST_EP(h->w[2]))];
}

void recv_delivered(uint32_t src, const struct grim_header *h, uint32_t desc, uint32_t used)
{
    const uint32_t src_lc = GRIM_EP_LC(GRIM_W1_SRC_EP(h->w[1]));
    ++in_seq[src][src_lc][GRIM_EP_LC(GRIM_W2_DST_EP(h->w[2]))];
    COUNT(received);
    control_post(src, GRIM_T_ACK, GRIM_W0_TOKEN(h->w[0]), GRIM_W0_SEQ(h->w[0]), src_lc);
    consume(desc, used);
}
#endif

int recv_poll(void)
{
    if (control_full())
        return 0;  /* ACKs first: the control queue is bounded (§4.2.3) */
#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH
    if (ct_recv_active())
        return ct_recv_step();  /* the ring's head is streaming to the host */
#endif
    if (held.active) {
        const int r = rm_resume();
        if (r == RM_WAIT)
            return 0;
        held.active = 0;
        again = held.again;
        rm_finished(&held.h, held.src, r);
        consume(ring + pos, held.used);
        return 1;
    }
    /* Nothing claimed past what was consumed: the bytes at head are a previous
     * lap's, whatever they look like. */
    if (*(volatile uint32_t *)(uintptr_t)(LANAI_RECV_BASE + LANAI_RECV_TAIL) == head)
        return 0;
    const uint32_t desc = ring + pos;
    const uint32_t flags = *sram_word(desc + 4u * LANAI_RECV_DESC_FLAGS);
    if (!(flags & LANAI_RECV_COMPLETE))
#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH
        return ct_recv_start(desc, head);
#else
        return 0;
#endif
    uint32_t used;
    if (flags & LANAI_RECV_WRAP) {
        used = ring_bytes - pos;
    } else if (flags & LANAI_RECV_CRC_BAD) {
        recv_crc_drop(desc, LANAI_RECV_SLOT_BYTES(*sram_word(desc + 4u * LANAI_RECV_DESC_LENGTH)));
        return 1;
    } else {
        const uint32_t src = *sram_word(desc + 4u * LANAI_RECV_DESC_SOURCE);
        const uint32_t bytes = *sram_word(desc + 4u * LANAI_RECV_DESC_LENGTH);
        const uint32_t off = desc + LANAI_RECV_DESC_BYTES;
        used = LANAI_RECV_SLOT_BYTES(bytes);
        trace_val(GRIM_TP_DECODE);
        const uint32_t w0 = bytes >= GRIM_CONTROL_BYTES ? wire_load(off) : 0;
        if (GRIM_W0_ID(w0) != GRIM_ID) {
            COUNT(bad_messages);
        } else if (bytes == GRIM_CONTROL_BYTES) {
            const uint32_t type = GRIM_W1_TYPE(wire_load(off + 4u));
            if (type == GRIM_T_ACK)
                scoreboard_ack(src, GRIM_W0_TOKEN(w0), GRIM_W0_SEQ(w0));
            else if (type == GRIM_T_NACK)
                scoreboard_nack(src, GRIM_W0_TOKEN(w0), GRIM_W0_SEQ(w0));
            else if (type == GRIM_T_ERROR)
                scoreboard_error(src, GRIM_W0_TOKEN(w0), GRIM_W0_SEQ(w0));
            else if (type == GRIM_T_GAP)
                scoreboard_gap(src, GRIM_W0_TOKEN(w0), GRIM_W0_SEQ(w0), (wire_load(off + 4u) >> 16) & 0xFFu);
            else
                COUNT(bad_messages);
        } else if (bytes >= GRIM_HEADER_BYTES) {
            if (!data_message(src, off, bytes, w0)) {
                held.used = used;
                return 1;
            }
        } else {
            COUNT(bad_messages);
        }
    }
    consume(desc, used);
    return 1;
}
