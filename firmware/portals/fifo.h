/*
 * FIFO index helpers (seed 000 §5.3). Every FIFO the firmware touches - the DMA
 * engines' command, completion and event rings and the mailbox's command and result
 * FIFOs - is managed by a head and a tail index in uncached memory or device
 * registers: the producer advances the tail, the consumer the head, and a FIFO is
 * full when advancing the tail would meet the head.
 *
 * With PTL_WRITE_THROUGH the firmware keeps cached copies (struct fifo_shadow): the
 * index it owns is read and updated in the copy and written through to the uncached
 * word; the other side's index is refreshed with an uncached read only when the
 * copy says the FIFO might be full (producer) or empty (consumer). Without it every
 * access goes to the uncached word or register.
 */
#ifndef PTL_FIFO_H
#define PTL_FIFO_H

#include <stdint.h>

#include "config.h"

struct fifo_shadow {
    uint32_t head;
    uint32_t tail;
};

/* ---- Producer side (DMA command rings, the mailbox result FIFO) ---- */

/* Is there room for `need` entries? */
static inline int fifo_has_room(volatile uint32_t *head, volatile uint32_t *tail, struct fifo_shadow *s,
                                uint32_t entries, uint32_t need)
{
#if PTL_WRITE_THROUGH
    (void)tail;
    if (((s->head - s->tail - 1u) & (entries - 1u)) >= need)
        return 1;
    s->head = *head;  /* might be full: refresh the consumer's index */
    return ((s->head - s->tail - 1u) & (entries - 1u)) >= need;
#else
    (void)s;
    return ((*head - *tail - 1u) & (entries - 1u)) >= need;
#endif
}

/* The index of the next free entry. */
static inline uint32_t fifo_tail(volatile uint32_t *tail, const struct fifo_shadow *s)
{
#if PTL_WRITE_THROUGH
    (void)tail;
    return s->tail;
#else
    (void)s;
    return *tail;
#endif
}

/* Publish `n` new entries (one store, so the consumer sees them all at once). */
static inline void fifo_produce(volatile uint32_t *tail, struct fifo_shadow *s, uint32_t entries, uint32_t n)
{
#if PTL_WRITE_THROUGH
    s->tail = (s->tail + n) & (entries - 1u);
    *tail = s->tail;
#else
    (void)s;
    *tail = (*tail + n) & (entries - 1u);
#endif
}

/* ---- Consumer side (DMA completion and event rings, the mailbox command FIFO) ---- */

/* Is there an entry to take? Its index is fifo_head(). */
static inline int fifo_has_entry(volatile uint32_t *head, volatile uint32_t *tail, struct fifo_shadow *s)
{
#if PTL_WRITE_THROUGH
    (void)head;
    if (s->head != s->tail)
        return 1;
    s->tail = *tail;  /* looks empty: refresh the producer's index */
    return s->head != s->tail;
#else
    (void)s;
    return *head != *tail;
#endif
}

static inline uint32_t fifo_head(volatile uint32_t *head, const struct fifo_shadow *s)
{
#if PTL_WRITE_THROUGH
    (void)head;
    return s->head;
#else
    (void)s;
    return *head;
#endif
}

/* Give the oldest entry back to the producer. */
static inline void fifo_consume(volatile uint32_t *head, struct fifo_shadow *s, uint32_t entries)
{
#if PTL_WRITE_THROUGH
    s->head = (s->head + 1u) & (entries - 1u);
    *head = s->head;
#else
    (void)s;
    *head = (*head + 1u) & (entries - 1u);
#endif
}

#endif /* PTL_FIFO_H */
