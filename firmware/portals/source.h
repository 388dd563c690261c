/*
 * Source structures (seed 000 §4.2, §4.3.2): one per peer node the firmware is
 * sending to or receiving from, shared by all processes. Active sources are found
 * through a hash table keyed by node id; unused ones sit on a free list. A source
 * lives while pendings reference it (TX: command to completion; RX: arrival to
 * release) and goes back to the free list when its count drops to zero.
 */
#ifndef PTL_SOURCE_H
#define PTL_SOURCE_H

#include <stdint.h>

#include "config.h"

struct lower_pending;

struct source {
    struct source *next;           /* hash bucket chain, or the free list */
    struct lower_pending *rx_head; /* RX pending list: deposits from this node, in order */
    struct lower_pending *rx_tail;
    uint32_t nid;                  /* node id */
    uint32_t refs;                 /* pendings that point here */
};

/* S_size; pools_report.cmake uses the same number. */
_Static_assert(sizeof(struct source) == 20, "update pools_report.cmake");

extern struct source sources[PTL_SOURCES];
extern struct source *source_hash[PTL_HASH_BUCKETS];

/* Boot: no active sources. */
void source_boot(void);
/* Find the source for `nid` or allocate one; takes a reference and sets `source`.
 * When the pool is empty: with go-back-N returns 0 (the caller decides), otherwise
 * panics naming the pool. */
int source_get(uint32_t nid);
/* Panic: the pool is empty (§4.3.3), for callers that cannot drop. */
void source_exhausted(void) __attribute__((noreturn));
/* Sources not in use. */
uint32_t sources_free(void);
/* Drop a reference to `s`; the last one frees it. */
void source_put(struct source *s);

#endif /* PTL_SOURCE_H */
