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
 */
#include "grim.h"

static uint32_t ring, ring_bytes, head;
static uint32_t pos;  /* head's place in the ring: head % ring_bytes without a division */
static uint8_t in_seq[GRIM_MAX_NODES][GRIM_MAX_LCS][GRIM_MAX_LCS];

void recv_boot(void)
{
    const uint32_t control = grim_shared.buffer_offset;
    control_boot(control);
    deliver_boot(control + CONTROL_SRAM_BYTES);
    ring = control + CONTROL_SRAM_BYTES + 64u;
    ring_bytes = (grim_shared.sram_bytes - ring) & ~15u;
    head = pos = 0;
    engines_boot(ring, ring_bytes);
}

static void data_message(uint32_t src, uint32_t off, uint32_t bytes, uint32_t w0)
{
    struct grim_header h;
    h.w[0] = w0;
    wire_read_header(off + 4u, (struct grim_header *)&h.w[1], GRIM_HEADER_WORDS - 1u);
    const uint32_t type = GRIM_W1_TYPE(h.w[1]);
    const uint32_t src_lc = GRIM_EP_LC(GRIM_W1_SRC_EP(h.w[1]));
    const uint32_t dst_lc = GRIM_EP_LC(GRIM_W2_DST_EP(h.w[2]));
    if ((type != GRIM_T_AM && type != GRIM_T_RM_P) || src >= GRIM_MAX_NODES ||
        GRIM_HEADER_BYTES + GRIM_W2_WORDS(h.w[2]) * 4u != bytes) {
        COUNT(bad_messages);
        return;
    }
    trace_val(GRIM_TP_SEQUENCE);
    const uint32_t seq = GRIM_W0_SEQ(w0), token = GRIM_W0_TOKEN(w0);
    if (seq != in_seq[src][src_lc][dst_lc]) {
        COUNT(out_of_order);
        return;
    }
    trace_val(GRIM_TP_CAPACITY);
    if (!deliver_capacity(&h)) {
        control_post(src, GRIM_T_NACK, token, seq, src_lc);
        return;
    }
    deliver(&h, off, bytes);
    ++in_seq[src][src_lc][dst_lc];
    COUNT(received);
    control_post(src, GRIM_T_ACK, token, seq, src_lc);
}

int recv_poll(void)
{
    if (control_full())
        return 0;  /* ACKs first: the control queue is bounded (§4.2.3) */
    /* Nothing claimed past what was consumed: the bytes at head are a previous
     * lap's, whatever they look like. */
    if (*(volatile uint32_t *)(uintptr_t)(LANAI_RECV_BASE + LANAI_RECV_TAIL) == head)
        return 0;
    const uint32_t desc = ring + pos;
    const uint32_t flags = *sram_word(desc + 4u * LANAI_RECV_DESC_FLAGS);
    if (!(flags & LANAI_RECV_COMPLETE))
        return 0;
    uint32_t used;
    if (flags & LANAI_RECV_WRAP) {
        used = ring_bytes - pos;
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
            else
                COUNT(bad_messages);
        } else if (bytes >= GRIM_HEADER_BYTES) {
            data_message(src, off, bytes, w0);
        } else {
            COUNT(bad_messages);
        }
    }
    /* The slot is free once consumed: clear its flags so a later lap of the ring
     * cannot mistake the old descriptor for a new one. */
    *sram_word(desc + 4u * LANAI_RECV_DESC_FLAGS) = 0;
    head += used;
    pos += used;
    if (pos == ring_bytes)  /* claims never cross the ring's end */
        pos = 0;
    *(volatile uint32_t *)(uintptr_t)(LANAI_RECV_BASE + LANAI_RECV_HEAD) = head;
    return 1;
}
