/*
 * The NI's virtual-memory translation cache (§4.5.2, Fig. 4.13; grim_fw.h's struct
 * grim_xlate). A lookup searches the static entries (programmed by the library for
 * its contiguous registered blocks), then the dynamic ones. On a miss the NI DMAs a
 * translation request to the driver's kernel memory and interrupts the host; the
 * driver's interrupt service routine translates with the host's page table, writes
 * the entry into NI memory and then its answer (L1171-1175). The firmware does not
 * wait for it: the caller holds the message and asks again on a later pass of the
 * main loop, which the driver's PIO write wakes. One request is outstanding at a
 * time, so a held message is the only one that can be waiting for it.
 *
 * Protection: the firmware reaches host memory by virtual address only through an
 * entry, and the driver answers only for memory the process registered; anything
 * else is XLATE_FAULT and the caller writes nothing.
 */
#include "grim.h"

#define XL (grim_shared.xlate)

static uint32_t staging;       /* SRAM the 16-byte request is DMAed from */
static uint32_t request_seq;   /* the last request sent */
static uint32_t waiting;       /* 1 while request_seq is unanswered */
static uint32_t wait_va, wait_bytes;
static uint32_t victim;        /* next dynamic entry to replace (round robin) */

void xlate_boot(uint32_t request_staging)
{
    staging = request_staging;
    request_seq = waiting = victim = 0;
}

/* The entry holding [va, va + bytes), or -1. Linear, static entries first: a miss
 * costs a search of every entry (Table 5.3: a miss searches longer than a hit). */
static int search(uint32_t va, uint32_t bytes)
{
    trace_val(GRIM_TP_XLATE_SEARCH);
    for (uint32_t i = 0; i < GRIM_XLATE_STATIC + GRIM_XLATE_DYNAMIC; ++i) {
        const volatile struct grim_xlate_entry *e = &XL.entry[i];
        if (e->valid && va - e->va < e->bytes && bytes <= e->bytes - (va - e->va))
            return (int)i;
    }
    return -1;
}

static void request(uint32_t va, uint32_t bytes)
{
    const uint32_t slot = GRIM_XLATE_STATIC + victim;
    victim = (victim + 1u) % GRIM_XLATE_DYNAMIC;
    XL.entry[slot].valid = 0;   /* the driver rewrites it */
    ++request_seq;
    volatile uint32_t *r = sram_word(staging);
    r[0] = request_seq;
    r[1] = va;
    r[2] = bytes;
    r[3] = slot;
    hdma_to_host(XL.request_host_addr, staging, sizeof(struct grim_xlate_request));
    fw_ctrl_write(NICLAB_CTRL_HOST_IRQ, 1);
    waiting = 1;
    wait_va = va;
    wait_bytes = bytes;
    COUNT(xlate_misses);
    trace_val(GRIM_TP_XLATE_REQUESTED);
}

int xlate(uint32_t va, uint32_t bytes, struct xlate_map *m)
{
    if (waiting) {
        if (XL.reply_seq != request_seq)
            return XLATE_WAIT;
        waiting = 0;
        trace_val(GRIM_TP_XLATE_FILLED);
        if (XL.reply_status != GRIM_XLATE_OK || wait_va != va || wait_bytes != bytes) {
            /* Unregistered; or the answer is for another range, which only a driver
             * gone wrong gives: refused either way, nothing is written. */
            COUNT(xlate_errors);
            return XLATE_FAULT;
        }
        const int i = search(va, bytes);
        if (i < 0) {
            COUNT(xlate_errors);   /* the driver's entry does not cover what it was asked */
            return XLATE_FAULT;
        }
        trace_val(GRIM_TP_XLATE_HIT);
        m->entry = (uint32_t)i;
        m->offset = va - XL.entry[i].va;
        return XLATE_HIT;
    }
    const int i = search(va, bytes);
    if (i >= 0) {
        trace_val(GRIM_TP_XLATE_HIT);
        COUNT(xlate_hits);
        m->entry = (uint32_t)i;
        m->offset = va - XL.entry[i].va;
        return XLATE_HIT;
    }
    trace_val(GRIM_TP_XLATE_MISS);
    request(va, bytes);
    return XLATE_WAIT;
}

void xlate_dma(const struct xlate_map *m, uint32_t sram_offset, uint32_t bytes, int to_host)
{
    /* Non-contiguous registered memory costs one DMA per page-sized run (§4.5.1:
     * "it must fragment its DMA operations into a series of page-sized transfers"). */
    const volatile struct grim_xlate_entry *e = &XL.entry[m->entry];
    uint32_t skip = m->offset;
    for (uint32_t r = 0; r < e->runs && bytes; ++r) {
        const uint32_t run_bytes = e->run[r].bytes;
        if (skip >= run_bytes) {
            skip -= run_bytes;
            continue;
        }
        uint32_t n = run_bytes - skip;
        if (n > bytes)
            n = bytes;
        if (to_host)
            hdma_to_host(e->run[r].pa + skip, sram_offset, n);
        else
            hdma_from_host(e->run[r].pa + skip, sram_offset, n);
        sram_offset += n;
        bytes -= n;
        skip = 0;
    }
    if (bytes)
        fw_panic("translation entry shorter than its size: the driver wrote a bad entry");
}
