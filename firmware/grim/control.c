/*
 * Buffered control messages (§4.2.3, Fig. 4.5): "an ACK or NACK message is inserted
 * into the control message queue if the outgoing link is busy or the control message
 * queue is already populated", and goes out as soon as the link is free. Each is the
 * abbreviated 8-byte header (L1000) in its own SRAM slot; a slot is reused only once
 * CONTROL_SLOTS - 1 later ones were queued, by when the send engine (one transfer at
 * a time) has long finished with it.
 */
#include "grim.h"

static uint32_t base;           /* SRAM offset of the slots */
static uint32_t head, count;    /* pending: head .. head + count - 1 */
static uint16_t dest[CONTROL_SLOTS];

void control_boot(uint32_t sram_offset)
{
    base = sram_offset;
    head = count = 0;
}

int control_full(void)
{
    return count >= CONTROL_SLOTS - 1u;
}

int control_send(void)
{
    if (!count || send_busy())
        return 0;
    send_start(base + head * GRIM_CONTROL_BYTES, GRIM_CONTROL_BYTES, dest[head]);
    head = (head + 1u) % CONTROL_SLOTS;
    --count;
    trace_val(GRIM_TP_ACK_DONE);
    return 1;
}

void control_post_gap(uint32_t dst, uint32_t token, uint32_t seq, uint32_t lc, uint32_t expected)
{
    control_post(dst, GRIM_T_GAP | (expected << 8), token, seq, lc);
}

/* `type` may carry W1's tree field in its bits 8-15 (GRIM_T_GAP's expected sequence). */
void control_post(uint32_t dst, uint32_t type, uint32_t token, uint32_t seq, uint32_t lc)
{
    trace_val(GRIM_TP_ACK);
    uint32_t slot = (head + count) % CONTROL_SLOTS;
    wire_store(base + slot * GRIM_CONTROL_BYTES, GRIM_W0(token, seq));
    wire_store(base + slot * GRIM_CONTROL_BYTES + 4u, GRIM_W1(type, 0u, type >> 8, lc));
    dest[slot] = (uint16_t)dst;
    ++count;
    if (type == GRIM_T_ACK)
        COUNT(acks_sent);
    else
        COUNT(nacks_sent);
    if (count > 1u || send_busy())
        COUNT(control_queued);
    control_send();
}
