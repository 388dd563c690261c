/*
 * Remote memory by virtual address at the receiving NI (§4.5.3-4.5.5, Table 5.3):
 *   RM-V        translate the target range, DMA the payload into its physical pages,
 *               then translate the notification word and DMA its value (§4.5.5: the
 *               lock "requires a virtual memory translation as well as a DMA of 4
 *               bytes", L1391).
 *   RM-RV       translate the remote range, fetch it into the NI's reply buffer and
 *               send it back as an RM-RV reply (§4.5.4, L1189).
 *   RM-RV reply translate the local range, DMA the data there, write zero to the lock
 *               word "when it finishes storing all of the fetched data" (L1193).
 * A message whose translation misses is held at the head of the receive ring (recv.c)
 * and resumed stage by stage once the driver has answered; an RM-RV request also
 * waits while the one reply buffer is still on its way out. A range the host has not
 * registered ends the operation with RM_REFUSED before anything of that range is
 * written (recv.c answers GRIM_T_ERROR, or reports to its own host for a reply).
 */
#include "grim.h"

enum { S_PAYLOAD, S_LOCK, S_BUFFER, S_FETCH };
enum { REPLY_IDLE, REPLY_PENDING, REPLY_SENDING };

static struct {
    struct grim_header h;
    uint32_t src, off, stage;
} op;

static uint32_t reply_offset, reply_bytes, reply_dst, reply_state, reply_done_at;
static uint32_t error_staging, error_count;
static uint32_t fault_va;   /* the address of the last refusal */

uint32_t rm_fault_va(void)
{
    return fault_va;
}

void rm_boot(uint32_t reply, uint32_t error)
{
    reply_offset = reply;
    error_staging = error;
    reply_state = REPLY_IDLE;
    sends_pending &= ~PENDING_RM_REPLY;
    error_count = 0;
}

static int reply_free(void)
{
    if (reply_state == REPLY_SENDING && (int32_t)(send_done_count() - reply_done_at) >= 0)
        reply_state = REPLY_IDLE;
    return reply_state == REPLY_IDLE;
}

int rm_reply_send(void)
{
    if (reply_state != REPLY_PENDING || send_busy())
        return 0;
    /* The engine is idle: its next completion is this reply's. */
    reply_done_at = send_done_count() + 1u;
    send_start(reply_offset, reply_bytes, reply_dst);
    reply_state = REPLY_SENDING;
    sends_pending &= ~PENDING_RM_REPLY;
    return 1;
}

void rm_report_error(uint32_t lc, uint32_t type, uint32_t node, uint32_t va)
{
    const uint32_t host = grim_shared.lc[lc & (GRIM_MAX_LCS - 1u)].err_host_addr;
    volatile uint32_t *r = sram_word(error_staging);
    r[0] = ++error_count;
    r[1] = type;
    r[2] = node;
    r[3] = va;
    if (host)
        hdma_to_host(host, error_staging, sizeof(struct grim_error_record));
}

/* Translates [va, va + bytes) and moves it between host and SRAM; RM_WAIT on a miss. */
static int move(uint32_t va, uint32_t sram_offset, uint32_t bytes, int to_host)
{
    struct xlate_map m;
    const int x = xlate(va, bytes, &m);
    if (x == XLATE_WAIT)
        return RM_WAIT;
    if (x == XLATE_FAULT) {
        fault_va = va;
        return RM_REFUSED;
    }
    xlate_dma(&m, sram_offset, bytes, to_host);
    return RM_DONE;
}

static int lock(uint32_t va, uint32_t value)
{
    if (!va)
        return RM_DONE;
    *sram_word(error_staging) = value;   /* the staging word of a 4-byte DMA */
    const int r = move(va, error_staging, 4u, 1);
    if (r == RM_DONE)
        trace_val(GRIM_TP_RM_LOCK_DONE);
    return r;
}

/* The reply: the request's token and sequence (it acknowledges the request), the
 * requester's addresses, the fetched bytes behind the header. */
static void reply_post(uint32_t bytes)
{
    const struct grim_header *h = &op.h;
    const uint32_t words = (bytes + 3u) / 4u;
    const uint32_t me = GRIM_W2_DST_EP(h->w[2]), them = GRIM_W1_SRC_EP(h->w[1]);
    wire_store(reply_offset, h->w[0]);
    wire_store(reply_offset + 4u, GRIM_W1(GRIM_T_RM_RV_REPLY, words * 4u - bytes, 0u, me));
    wire_store(reply_offset + 8u, GRIM_W2(words, them));
    wire_store(reply_offset + 12u, GRIM_W3(GRIM_W3_LC(h->w[3]), 0u));
    wire_store(reply_offset + 16u, h->w[5]);
    wire_store(reply_offset + 20u, h->w[7]);
    wire_store(reply_offset + 24u, 0u);
    wire_store(reply_offset + 28u, 0u);
    reply_bytes = GRIM_HEADER_BYTES + words * 4u;
    reply_dst = op.src;
    reply_state = REPLY_PENDING;
    sends_pending |= PENDING_RM_REPLY;
    COUNT(rm_reads_served);
    rm_reply_send();
}

int rm_resume(void)
{
    const struct grim_header *h = &op.h;
    const uint32_t type = GRIM_W1_TYPE(h->w[1]);
    int r = RM_DONE;
    switch (op.stage) {
    case S_PAYLOAD: {   /* RM-V and the reply: the payload to its pages */
        const uint32_t payload = wire_payload_bytes(h);
        if (payload && (r = move(h->w[4], op.off + GRIM_HEADER_BYTES, payload, 1)) != RM_DONE)
            return r;
        trace_val(GRIM_TP_DELIVERED);
        op.stage = S_LOCK;
    }   /* fall through */
    case S_LOCK:
        return lock(h->w[5], type == GRIM_T_RM_V ? h->w[6] : 0u);
    case S_BUFFER:      /* RM-RV: the one reply buffer must be free */
        if (!reply_free())
            return RM_WAIT;
        op.stage = S_FETCH;
        /* fall through */
    case S_FETCH:
        if (h->w[6] > GRIM_MTU) {
            fault_va = h->w[4];
            return RM_REFUSED;
        }   /* more than a reply carries: the library never asks it */
        if (h->w[6] && (r = move(h->w[4], reply_offset + GRIM_HEADER_BYTES, h->w[6], 0)) != RM_DONE)
            return r;
        reply_post(h->w[6]);
        return RM_DONE;
    }
    fault_va = h->w[4];
    return RM_REFUSED;
}

int rm_start(const struct grim_header *h, uint32_t src, uint32_t sram_offset)
{
    trace_val(GRIM_TP_DELIVER);
    op.h = *h;
    op.src = src;
    op.off = sram_offset;
    op.stage = GRIM_W1_TYPE(h->w[1]) == GRIM_T_RM_RV ? S_BUFFER : S_PAYLOAD;
    return rm_resume();
}
