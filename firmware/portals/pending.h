/*
 * Lower pendings and DMA segments (seed 000 §4.2). A pending tracks one message in
 * progress; its lower half lives here, in cached SRAM, and holds everything the
 * firmware needs to progress and complete the message; its upper half is in host
 * memory (PTL_UPPER_BYTES each) and the firmware only ever writes it. Ids 0 ..
 * PTL_TX_PENDINGS-1 are the host-managed TX pool, the rest the firmware-managed RX
 * pool with its free list (in struct process); with go-back-N, ids after those are
 * the firmware's own control pendings (gbn.c). No dynamic allocation: every array is
 * sized at compile time (§4.2, last paragraph).
 */
#ifndef PTL_PENDING_H
#define PTL_PENDING_H

#include <stdint.h>

#include "config.h"
#include "process.h"

struct source;

enum pending_state {
    PEND_FREE = 0,      /* TX: the host owns the id; RX: on the free list (or never used) */
    PEND_TX_QUEUED,     /* on the TX pending list, commands not yet in the TX FIFO */
    PEND_TX_SENDING,    /* its commands are in the TX FIFO */
    PEND_TX_UNACKED,    /* go-back-N: sent, on its peer's unacked list until the receiver's ACK */
    PEND_RX_ANNOUNCED,  /* header in the upper pending, NEW_MSG posted: waiting for PTL_CMD_RX */
    PEND_RX_QUEUED,     /* on its source's RX pending list, not at the head yet */
    PEND_RX_DEPOSITING, /* head of its source's list: RX DMA programmed */
    PEND_RX_DONE,       /* RX_DONE or NEW_MSG_COMPLETE posted: waiting for PTL_CMD_RELEASE */
    PEND_TX_WAITING,    /* go-back-N: commanded, waiting for a free source (seq holds the destination);
                         * last: the other states keep their values, and the images without
                         * go-back-N their code byte for byte */
};

/* lower_pending.flags beside PTL_TX_SEGS / PTL_RX_SEGS: the header to transmit is in
 * the upper pending's second half (a get reply the firmware sends for the accelerated
 * process from the request's RX pending; the first half keeps the request for the
 * host library). */
#define PEND_HDR_SECOND_HALF 0x2u
/* Go-back-N: a message that was in the TX FIFO when its receiver's NACK came, so the
 * receiver drops it: it goes again when it completes (gbn.c, go_back). */
#define PEND_RESEND 0x4u
/* Go-back-N: its payload could not be read; it goes as a PTL_MSG_FW_SKIP, and its
 * TX_DONE, when acknowledged, says NICLAB_DMA_HOST_FAULT. */
#define PEND_FAILED 0x8u

/* Segment references are index + 1, so that 0 - what crt0 leaves in every pending
 * - means "none": no pool needs a boot-time initialization loop. */
#define SEG_NONE 0u

struct lower_pending {
    struct lower_pending *next;  /* TX pending list, a source's RX pending list or the RX free list */
    struct source *source;       /* the peer: destination (TX) or sender (RX), referenced */
    uint32_t addr_lo, addr_hi;   /* contiguous payload buffer in host memory */
    uint32_t length;             /* its bytes */
    uint16_t id;
    uint8_t state;               /* enum pending_state */
    uint8_t flags;               /* PTL_TX_SEGS / PTL_RX_SEGS: payload is the segment chain */
    uint16_t seg_head, seg_tail; /* segment chain (references), SEG_NONE when empty */
    uint8_t slot;                /* RX: the RX DMA engine's slot for the message */
    uint8_t nsegs;
    uint16_t seq;                /* TX, go-back-N: the message's sequence number to its destination */
};

/* One contiguous host region of a non-contiguous buffer (PTL_CMD_SEG). */
struct segment {
    uint32_t addr_lo, addr_hi, length;
    uint16_t next;               /* reference of the next in the pending's chain or on the free list */
    uint16_t pad;
};

/* P_size and the segment size; pools_report.cmake uses the same numbers. */
_Static_assert(sizeof(struct lower_pending) == 32, "update pools_report.cmake");
_Static_assert(sizeof(struct segment) == 16, "update pools_report.cmake");

/* Every process's pool, one after the other: the generic process's, then the
 * accelerated process's (PTL_ACCEL), each PTL_PENDINGS long with the same id layout. */
extern struct lower_pending lower_pendings[PTL_PROCESSES * PTL_PENDINGS];
extern struct segment segments[PTL_SEGMENTS];

static inline struct segment *segment_at(uint32_t ref) { return &segments[ref - 1u]; }

/* A pending's place in lower_pendings (unique over all processes; go-back-N's lists
 * link by it). */
static inline uint32_t pending_index(const struct lower_pending *lp) { return (uint32_t)(lp - lower_pendings); }

/* The process whose pool holds `lp`. */
static inline struct process *pending_process(const struct lower_pending *lp)
{
#if PTL_ACCEL
    if (lp >= lower_pendings + PTL_PENDINGS && lp < lower_pendings + PTL_PROCESSES * PTL_PENDINGS)
        return &accel_process;
#else
    (void)lp;
#endif
    return &generic_process;
}

/* Byte offset of `lp`'s transmit header in its upper pending. */
static inline uint32_t pending_hdr_offset(const struct lower_pending *lp)
{
#if PTL_ACCEL
    return (uint32_t)lp->id * PTL_UPPER_BYTES + ((lp->flags & PEND_HDR_SECOND_HALF) ? PTL_HDR_BYTES : 0u);
#else
    return (uint32_t)lp->id * PTL_UPPER_BYTES;  /* only the accelerated process's replies use the second half */
#endif
}

static inline int pending_is_tx(uint32_t id) { return id < PTL_TX_PENDINGS; }
static inline int pending_is_rx(uint32_t id) { return id - PTL_TX_PENDINGS < PTL_RX_PENDINGS; }

/* The pending a host command names, checked before the firmware trusts it: panics
 * with `bad_id` (and the id) unless `in_pool`, with `bad_state` unless the pending is
 * in `state`. Sets `pending`. */
void pending_for_command(uint32_t id, int in_pool, uint8_t state, const char *bad_id, const char *bad_state);

/* Boot: every TX pending free. */
void pending_boot(void);
/* Take an RX pending from the process's free list and set `pending`. When the pool is
 * empty: with go-back-N returns 0 (the message is dropped and NACKed), otherwise
 * panics (seed 000 §4.3.3: the node panics rather than hang). */
int rx_pending_alloc(void);
/* Return `pending` to its free list. */
void rx_pending_free(void);

/* Append a host region to `pending`'s segment chain (PTL_CMD_SEG). */
void pending_add_segment(uint32_t addr_lo, uint32_t addr_hi, uint32_t length);
/* Give `pending`'s segments back to the pool. */
void pending_free_segments(void);

#endif /* PTL_PENDING_H */
