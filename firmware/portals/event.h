/*
 * The generic event queue (seed 000 §4.1): slots in host memory that the firmware
 * writes through host window 0, word 0 last, so the host sees an event appear
 * atomically. The generic process is interrupt driven; the firmware raises one host
 * interrupt per main-loop iteration that posted events, and the host's handler
 * drains every new event each time it runs.
 */
#ifndef PTL_EVENT_H
#define PTL_EVENT_H

#include <stdint.h>

/* Post an event to `process`'s queue. */
void event_post(uint32_t type, uint32_t id, uint32_t word2, uint32_t word3);
/* End of a main-loop iteration: one interrupt if anything was posted to the generic
 * EQ (the accelerated EQ is polled, never interrupted for). */
void event_flush(void);
/* Raise the host interrupt now (and count it). */
void host_interrupt(void);

#endif /* PTL_EVENT_H */
