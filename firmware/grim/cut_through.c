/*
 * The cut-through data path of §5.5.4 (L1453-1459), built into the grim_cutthrough
 * images only (GRIM_DATAPATH == GRIM_DP_CUT_THROUGH; CMakeLists.txt).
 *
 * Receiver cut-through: "the receiving NI monitors the capacity of an incoming message
 * buffer and then begins transferring data to the host as soon as the network begins
 * to fill the buffer" (L1455); "in the best case ... as soon as the header for the
 * message arrives" (L1463). The receive engine counts each message's bytes in its
 * descriptor (LANAI_RECV_DESC_RECEIVED) and, in this image, interrupts at every
 * packet. When an active message or RM-P has its header in, it is decoded and checked
 * (sequence, capacity) at once and DMAed to the host in pieces: each piece is what has
 * arrived when the previous DMA is done. The back count or notification word and the
 * ACK follow the last byte, as on the store-and-forward path (deliver-then-ACK).
 * A message that fails a check (it will be NACKed or dropped), remote memory by
 * virtual address (translated first, rm.c) and control messages wait until they are
 * whole and take the store-and-forward path in recv.c.
 *
 * Sender cut-through, the "cooperative" one (L1457): the library writes a long
 * message into the send queue in segments and moves the queue's back count after each
 * (grim_fw.h). "When the sending NI detects a new message it begins transmitting as
 * much of the message as is available to the wire. The NI then appends the network
 * transmission as new segments arrive": the send engine takes a partial message and
 * holds the worm until told more is there (LANAI_SEND_AVAIL, lanai.h).
 */
#include "grim.h"

#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH

/* The message streaming to the host from the head of the receive ring. */
static struct {
    uint32_t active;
    uint32_t desc, src, bytes, used;
    uint32_t end;    /* message bytes that go to the host (AM: all; RM-P: header + payload) */
    uint32_t done;   /* of them DMAed */
    uint32_t host;   /* host address of the message's byte 0 */
    struct grim_header h;
} rx;
/* The ring position whose message was looked at and left for the store-and-forward
 * path: not decoded again at every packet. */
static uint32_t declined = 0xFFFFFFFFu;

int ct_recv_active(void)
{
    return rx.active;
}

int ct_recv_step(void)
{
    const uint32_t flags = *sram_word(rx.desc + 4u * LANAI_RECV_DESC_FLAGS);
    if (flags & LANAI_RECV_CRC_BAD) {
        /* A packet failed its CRC: nothing more goes to the host, and what went is not
         * made visible (no back count, no notification word; RM-P bytes already in the
         * target are written again by the resend). Dropped once whole. */
        if (!(flags & LANAI_RECV_COMPLETE))
            return 0;
        rx.active = 0;
        recv_crc_drop(rx.desc, rx.used);
        return 1;
    }
    uint32_t avail = (flags & LANAI_RECV_COMPLETE) ? rx.bytes : *sram_word(rx.desc + 4u * LANAI_RECV_DESC_RECEIVED);
    if (avail > rx.end)
        avail = rx.end;
    if (avail > rx.done) {
        hdma_to_host(rx.host + rx.done, rx.desc + LANAI_RECV_DESC_BYTES + rx.done, avail - rx.done);
        rx.done = avail;
        return 1;
    }
    if (rx.done < rx.end || !(flags & LANAI_RECV_COMPLETE))
        return 0;  /* the next packet's interrupt wakes the loop */
    trace_val(GRIM_TP_DELIVERED);
    deliver_done(&rx.h);
    rx.active = 0;
    recv_delivered(rx.src, &rx.h, rx.desc, rx.used);
    return 1;
}

int ct_recv_start(uint32_t desc, uint32_t ring_head)
{
    const uint32_t bytes = *sram_word(desc + 4u * LANAI_RECV_DESC_LENGTH);
    if (ring_head == declined || bytes <= GRIM_HEADER_BYTES)
        return 0;
    if (*sram_word(desc + 4u * LANAI_RECV_DESC_RECEIVED) < GRIM_HEADER_BYTES ||
        (*sram_word(desc + 4u * LANAI_RECV_DESC_FLAGS) & LANAI_RECV_CRC_BAD))
        return 0;  /* the header is not in yet, or is bad: dropped once whole (recv.c) */
    declined = ring_head;  /* unless it streams: wait for it whole */
    const uint32_t src = *sram_word(desc + 4u * LANAI_RECV_DESC_SOURCE);
    const uint32_t off = desc + LANAI_RECV_DESC_BYTES;
    trace_val(GRIM_TP_DECODE);
    struct grim_header h;
    h.w[0] = wire_load(off);
    if (GRIM_W0_ID(h.w[0]) != GRIM_ID)
        return 0;
    wire_read_header(off + 4u, (struct grim_header *)&h.w[1], GRIM_HEADER_WORDS - 1u);
    const uint32_t type = GRIM_W1_TYPE(h.w[1]);
    if ((type != GRIM_T_AM && type != GRIM_T_RM_P) || src >= GRIM_MAX_NODES ||
        GRIM_HEADER_BYTES + GRIM_W2_WORDS(h.w[2]) * 4u != bytes)
        return 0;
    trace_val(GRIM_TP_SEQUENCE);
    if (GRIM_W0_SEQ(h.w[0]) != recv_expected_seq(src, &h))
        return 0;
    trace_val(GRIM_TP_CAPACITY);
    if (!deliver_capacity(&h))
        return 0;
    trace_val(GRIM_TP_DELIVER);
    rx.desc = desc;
    rx.src = src;
    rx.bytes = bytes;
    rx.used = LANAI_RECV_SLOT_BYTES(bytes);
    rx.h = h;
    rx.host = deliver_host_base(&h, bytes);
    if (type == GRIM_T_AM) {
        rx.done = 0;
        rx.end = bytes;
    } else {
        rx.done = GRIM_HEADER_BYTES;
        rx.end = GRIM_HEADER_BYTES + wire_payload_bytes(&h);
    }
    rx.active = 1;
    ct_recv_step();
    return 1;
}

/* The message the send engine is sending while the host is still writing it. */
static struct {
    uint32_t active, lc, start, bytes, avail;
} tx;

static inline volatile uint32_t *send_reg(uint32_t offset)
{
    return (volatile uint32_t *)(uintptr_t)(LANAI_SEND_BASE + offset);
}

int ct_send_feed(void)
{
    if (!tx.active)
        return 0;
    uint32_t avail = grim_shared.lc[tx.lc].sq_back - tx.start;
    if (avail > tx.bytes)
        avail = tx.bytes;
    if (avail == tx.avail)
        return 0;  /* the host's next store to sq_back rings the doorbell */
    tx.avail = avail;
    *send_reg(LANAI_SEND_AVAIL) = avail;
    if (avail == tx.bytes)
        tx.active = 0;
    return 1;
}

int ct_send_partial(uint32_t lc, uint32_t start, uint32_t off, uint32_t bytes, uint32_t dst)
{
    const uint32_t avail = grim_shared.lc[lc].sq_back - start;
    if (avail >= bytes)
        return 0;  /* all there: an ordinary send */
    tx.active = 1;
    tx.lc = lc;
    tx.start = start;
    tx.bytes = bytes;
    tx.avail = avail;
    *send_reg(LANAI_SEND_AVAIL) = avail;
    send_start_go(off, bytes, dst, LANAI_SEND_GO_PARTIAL);
    return 1;
}

#endif
