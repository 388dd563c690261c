/*
 * Message reception for the accelerated process (seed 000 §4.3.2: "For accelerated
 * processes, Portals matching is performed by the firmware. Therefore, there is no
 * need for the firmware to raise an interrupt to ask the host where to put an
 * incoming message"). rx.c has taken an RX pending from the accelerated pool and
 * written the header into its upper half; here the firmware matches it against the
 * process's match list in SRAM (accel_match.c) and
 *  - a put: programs the deposit straight into the MD (PTL_EV_MATCHED, then RX_DONE
 *    when it is in), or, for a header-only put, posts PTL_EV_MATCHED_COMPLETE (the
 *    library copies an inline payload from the header, seed 000 §5.2);
 *  - a get: writes the reply header into the second half of the same pending's upper
 *    half (the request stays in the first, for the library) and queues the reply,
 *    payload straight from the MD, on the single TX pending list (PTL_EV_MATCHED, then
 *    TX_DONE);
 *  - no match: discards it and reports the drop (accel_drops.c; the library counts it).
 * Replies and acks need no matching (they name the initiator's MD by cookie): they are
 * announced as in generic mode, on the accelerated EQ, and its library answers with
 * PTL_CMD_RX. Every event goes to the accelerated EQ; none raises an interrupt.
 */
#include "globals.h"

#include "accel.h"

#if PTL_ACCEL

#include "niclab/fw/portals_match.h"
#include "niclab/fw/runtime.h"
#include "event.h"
#include "handlers.h"
#include "niccb.h"
#include "pending.h"
#include "process.h"
#include "source.h"

/* Header words (struct ptl_hdr, portals_fw.h). */
#define HW_TYPE_FLAGS_PT 0   /* type | flags << 8 | pt_index << 16 */
#define HW_SRC_PID       2   /* src_pid | dst_pid << 16 */
#define HW_LENGTH        3
#define HW_BITS_LO       4
#define HW_BITS_HI       5
#define HW_OFFSET        6
#define HW_COOKIE        7
#define HW_MLENGTH       10
#define HW_UID           11  /* uid | ac_index << 16 */
#define HW_SEQ           12

/* Write the reply to the get in `hdr` into the pending's upper half: the header the
 * host library would have built (library_ops.cpp, parse_request), through the window
 * the driver opened for the accelerated process. */
static void write_reply_header(volatile const uint32_t *hdr, const struct accel_match *m)
{
    struct process *p = process;
    volatile uint32_t *up = (volatile uint32_t *)(uintptr_t)(p->upper_window + pending_hdr_offset(pending));
    up[HW_TYPE_FLAGS_PT] = PTL_MSG_REPLY | (hdr[HW_TYPE_FLAGS_PT] & 0xFFFF0000u);
    up[1] = fw_node_id();
    up[HW_SRC_PID] = p->pid | (hdr[HW_SRC_PID] & 0xFFFFu) << 16;
    up[HW_LENGTH] = m->mlength;
    up[HW_BITS_LO] = hdr[HW_BITS_LO];
    up[HW_BITS_HI] = hdr[HW_BITS_HI];
    up[HW_OFFSET] = m->offset;
    up[HW_COOKIE] = hdr[HW_COOKIE];
    up[8] = 0;
    up[9] = 0;
    up[HW_MLENGTH] = m->mlength;
    up[HW_UID] = p->uid;
    up[HW_SEQ] = 0;  /* go-back-N numbers it when it is queued */
}

static void matched_event(uint32_t type, const struct accel_match *m)
{
    event_post(type | m->md << 16, pending->id, m->offset, m->mlength);
}

void accel_arrival(volatile const uint32_t *hdr, uint32_t slot, uint32_t length, uint32_t src)
{
    uint32_t w0 = hdr[HW_TYPE_FLAGS_PT];
    uint32_t type = w0 & 0xFFu;
    if (type != PTL_MSG_PUT && type != PTL_MSG_GET) {
        /* A reply or an ack: announced, as in generic mode, without an interrupt. */
        if (length <= PTL_HDR_BYTES) {
            rx_discard(slot);
            pending->state = PEND_RX_DONE;
            event_post(PTL_EV_NEW_MSG_COMPLETE, pending->id, length, src);
        } else {
            pending->state = PEND_RX_ANNOUNCED;
            event_post(PTL_EV_NEW_MSG, pending->id, length, src);
        }
        return;
    }
    struct accel_match m;
    uint32_t op = type == PTL_MSG_PUT ? PTL_MATCH_OP_PUT : PTL_MATCH_OP_GET;
    if (!accel_match(w0 >> 16, src, hdr[HW_SRC_PID] & 0xFFFFu, hdr[HW_BITS_LO], hdr[HW_BITS_HI], op,
                     hdr[HW_LENGTH], hdr[HW_OFFSET], &m)) {
        rx_discard(slot);
        source_put(pending->source);
        rx_pending_free();
        accel_report_drop(src);
        return;
    }
    NICCB_INC(accel_matches);
    struct accel_md *d = &accel_mds[m.md - 1u];
    accel_pending_md[pending->id] = (uint16_t)m.md;
    uint32_t lo = d->start_lo + m.offset;
    pending->addr_lo = lo;
    pending->addr_hi = d->start_hi + (lo < m.offset);
    pending->length = m.mlength;
    pending->flags = 0;
    if (type == PTL_MSG_GET) {
        pending->flags = PEND_HDR_SECOND_HALF;  /* the request stays in the first half */
        rx_discard(slot);  /* the request is its header */
        write_reply_header(hdr, &m);
        matched_event(PTL_EV_MATCHED, &m);
        tx_enqueue();      /* the reply, from this pending, to the requester (its source) */
        return;
    }
    if (length <= PTL_HDR_BYTES) {
        /* Nothing to deposit: the payload, if any, is inline in the header. */
        rx_discard(slot);
        pending->state = PEND_RX_DONE;
        accel_md_done(m.md);
        matched_event(PTL_EV_MATCHED_COMPLETE, &m);
        return;
    }
    pending->state = PEND_RX_ANNOUNCED;
    matched_event(PTL_EV_MATCHED, &m);
    rx_queue();
}

#else
/* ISO C forbids an empty translation unit. */
typedef int ptl_accel_rx_not_built;
#endif /* PTL_ACCEL */
