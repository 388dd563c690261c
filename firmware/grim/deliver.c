/*
 * Delivery into host memory by the host DMA engine. Active messages (§4.4, §5.4.2,
 * Table 5.2): the whole message, header as it arrived, goes into the next slot of the
 * endpoint's receive queue in pinned host memory; then the incremented back count
 * goes to the endpoint, after the first DMA completes (L1372). The count is written
 * in the host's byte order, which on the x86 hosts is the LANai core's own: no
 * conversion is needed (the thesis's "big-endian for the x86 host", L1372, is a slip:
 * digest ambiguity 5). RM-P (§4.5.3): the payload goes straight to the physical
 * address the sender named, then the notification value, if any, to its word
 * (§4.5.5), once the whole block is written.
 */
#include "grim.h"

static uint32_t staging;   /* an SRAM word the 4-byte DMAs are made from */

void deliver_boot(uint32_t staging_offset)
{
    staging = staging_offset;
}

int deliver_capacity(const struct grim_header *h)
{
    if (GRIM_W1_TYPE(h->w[1]) != GRIM_T_AM)
        return 1;  /* RM-P writes where the sender said: no queue to fill */
    const volatile struct grim_lc *L = &grim_shared.lc[GRIM_EP_LC(GRIM_W2_DST_EP(h->w[2]))];
    return L->enabled && L->rq_back - L->rq_front < L->rq_slots;
}

void dma_word(uint32_t host_addr, uint32_t value)
{
    *sram_word(staging) = value;
    hdma_to_host(host_addr, staging, 4u);
}

/* The steps of a delivery, inlined into deliver() (one call on the store-and-forward
 * path) and shared with the cut-through path (cut_through.c), which moves the bytes in
 * pieces between them. */
static inline __attribute__((always_inline)) volatile struct grim_lc *am_lc(const struct grim_header *h)
{
    return &grim_shared.lc[GRIM_EP_LC(GRIM_W2_DST_EP(h->w[2]))];
}

static inline __attribute__((always_inline)) uint32_t am_slot(volatile struct grim_lc *L, uint32_t bytes)
{
    if (bytes > L->rq_slot_bytes)
        fw_panic("active message larger than the endpoint's queue slot");
    const uint32_t slot = L->rq_back & (L->rq_slots - 1u);  /* a power of two (driver) */
    return L->rq_host_addr + slot * L->rq_slot_bytes;
}

static inline __attribute__((always_inline)) void am_done(volatile struct grim_lc *L)
{
    const uint32_t back = L->rq_back + 1u;
    L->rq_back = back;
    dma_word(L->rq_back_host_addr, back);
    trace_val(GRIM_TP_QUEUE_PTR);
    COUNT(am_delivered);
}

static inline __attribute__((always_inline)) void rm_p_done(const struct grim_header *h)
{
    if (h->w[5])
        dma_word(h->w[5], h->w[6]);
    COUNT(rm_delivered);
}

/* Multicast delivers one message to several local LCs (multicast.c). */
int deliver_am_room(uint32_t lc)
{
    const volatile struct grim_lc *L = &grim_shared.lc[lc];
    return L->enabled && L->rq_back - L->rq_front < L->rq_slots;
}

void deliver_am_lc(uint32_t lc, uint32_t off, uint32_t bytes)
{
    volatile struct grim_lc *L = &grim_shared.lc[lc];
    hdma_to_host(am_slot(L, bytes), off, bytes);
    trace_val(GRIM_TP_DELIVERED);
    am_done(L);
}

void deliver(const struct grim_header *h, uint32_t off, uint32_t bytes)
{
    trace_val(GRIM_TP_DELIVER);
    if (GRIM_W1_TYPE(h->w[1]) == GRIM_T_AM) {
        volatile struct grim_lc *L = am_lc(h);
        hdma_to_host(am_slot(L, bytes), off, bytes);
        trace_val(GRIM_TP_DELIVERED);
        am_done(L);
        return;
    }
    const uint32_t payload = wire_payload_bytes(h);
    if (payload)
        hdma_to_host(h->w[4], off + GRIM_HEADER_BYTES, payload);
    trace_val(GRIM_TP_DELIVERED);
    rm_p_done(h);
}

#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH
uint32_t deliver_host_base(const struct grim_header *h, uint32_t bytes)
{
    if (GRIM_W1_TYPE(h->w[1]) == GRIM_T_AM)
        return am_slot(am_lc(h), bytes);
    return h->w[4] - GRIM_HEADER_BYTES;  /* the header stays in SRAM */
}

void deliver_done(const struct grim_header *h)
{
    if (GRIM_W1_TYPE(h->w[1]) == GRIM_T_AM)
        am_done(am_lc(h));
    else
        rm_p_done(h);
}
#endif
