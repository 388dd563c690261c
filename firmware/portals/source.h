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
/* Find the source for `nid` or allocate one (panics when the pool is empty); takes
 * a reference and sets `source`. */
void source_get(uint32_t nid);
/* Drop a reference to `s`; the last one frees it. */
void source_put(struct source *s);

#endif /* PTL_SOURCE_H */
