/*
 * The handlers the main loop dispatches to (seed 000 §4.3). Each returns non-zero
 * if it made progress, so the loop knows whether it may sleep.
 */
#ifndef PTL_HANDLERS_H
#define PTL_HANDLERS_H

#include <stdint.h>

/* mailbox_cmd.c: commands from the host. */
int mailbox_poll(void);

/* tx.c: message transmission (§4.3.1). */
void tx_command(volatile const uint32_t *cmd);
int tx_progress(void);       /* program queued pendings into the TX FIFO */
#if PTL_GBN
int tx_waiting_progress(void); /* queue the transmits waiting for a source, as sources free up */
#endif
/* Number `pending` (go-back-N) and put it at the tail of the TX pending list; its
 * source, payload and header are set. */
void tx_enqueue(void);
int tx_completions(void);
struct lower_pending;
/* Post `pending`'s TX_DONE (status, payload bytes) and give its id back to the host. */
void tx_release(uint32_t status, uint32_t payload);
/* Put the chain first..last (linked by next) ahead of the pendings not yet programmed. */
void tx_queue_front(struct lower_pending *first, struct lower_pending *last);

/* rx.c: message reception (§4.3.2). */
int rx_events(void);
void rx_command(volatile const uint32_t *cmd);
void rx_release(volatile const uint32_t *cmd);
/* Link `pending` (payload buffer set) at the tail of its source's RX pending list and
 * program the RX DMA engine if it is the head. */
void rx_queue(void);
/* Let the engine discard the rest of the message in `slot` (header-only messages, a
 * get request, a drop); its completion is ignored. */
void rx_discard(uint32_t slot);
int rx_completions(void);

#endif /* PTL_HANDLERS_H */
