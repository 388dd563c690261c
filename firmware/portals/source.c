/*
 * The source pool (seed 000 §4.2, §4.3.2): a hash table of active sources keyed by
 * node id, and a free list. Node ids in a niclab cluster are dense (0 .. nodes-1),
 * so the low bits of the id spread them evenly over the buckets.
 */
#include "globals.h"

#include "niccb.h"
#include "panic.h"
#include "source.h"

PTL_POOL struct source sources[PTL_SOURCES];
PTL_POOL struct source *source_hash[PTL_HASH_BUCKETS];

static struct source *source_free;  /* released sources */
static uint32_t source_fresh;       /* sources never used yet start here */
static uint32_t sources_used;

static inline struct source **bucket(uint32_t nid) { return &source_hash[nid & (PTL_HASH_BUCKETS - 1u)]; }

void source_boot(void)
{
    /* Only the hash table needs clearing (pools.ld); sources are set up on first use. */
    for (uint32_t i = 0; i < PTL_HASH_BUCKETS; ++i)
        source_hash[i] = 0;
}

void source_exhausted(void)
{
    /* Too many peers at once (§4.3.3): panic, naming the pool. */
    fw_panic(reason_pool("source", sources_used, PTL_SOURCES));
}

uint32_t sources_free(void) { return PTL_SOURCES - sources_used; }

int source_get(uint32_t nid)
{
    struct source **b = bucket(nid);
    struct source *s;
    for (s = *b; s; s = s->next) {
        if (s->nid == nid) {
            s->refs++;
            source = s;
            return 1;
        }
    }
    if (source_free) {
        s = source_free;
        source_free = s->next;
    } else if (source_fresh < PTL_SOURCES) {
        s = &sources[source_fresh++];
    } else {
#if PTL_GBN
        return 0;
#else
        source_exhausted();
#endif
    }
    trace_val(nid);
    s->nid = nid;
    s->refs = 1;
    s->rx_head = s->rx_tail = 0;
    s->next = *b;
    *b = s;
    sources_used++;
    NICCB_INC(sources_in_use);
    NICCB_MAX(sources_in_use, sources_in_use_max);
    source = s;
    return 1;
}

void source_put(struct source *s)
{
    if (--s->refs)
        return;
    struct source **link = bucket(s->nid);
    while (*link != s)
        link = &(*link)->next;
    *link = s->next;
    s->next = source_free;
    source_free = s;
    sources_used--;
    NICCB_DEC(sources_in_use);
}
