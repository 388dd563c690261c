/*
 * GRIM firmware for the Myrinet LANai (seed 004 Ch. IV): internal declarations shared
 * by its files. Each file has one job:
 *   main.c       boot, the polling main loop
 *   engines.c    the LANai's three DMA engines (lanai.h), one transfer in flight each
 *   wire.c       Figure 4.2's header in network byte order
 *   lc_send.c    logical-channel scan and transmission of new messages (§4.3)
 *   scoreboard.c in-flight messages, ACK/NACK processing, per-destination rollback (§4.2)
 *   control.c    the buffered control-message queue (§4.2.3)
 *   recv.c       decoding, sequencing and capacity checks at the receiver (§4.2.1)
 *   deliver.c    active-message and RM-P delivery into host memory (§4.4, §4.5)
 * Trace points (trace.h) mark the steps of Table 5.1; their values name the step
 * (GRIM_TP_* below), so the per-step costs can be read from a trace.
 */
#ifndef GRIM_H
#define GRIM_H

#include <stdint.h>

#include "niclab/fw/grim_fw.h"
#include "niclab/fw/lanai.h"
#include "niclab/fw/runtime.h"
#include "niclab/fw/trace.h"

/* Trace values: the steps of Table 5.1 (L1322-1332), and the delivery of Table 5.2. */
#define GRIM_TP_DETECT          1   /* sending NI: detect new message */
#define GRIM_TP_SET_VALUES      2   /* sending NI: set values in message */
#define GRIM_TP_SCOREBOARD      3   /* sending NI: insert message in scoreboard */
#define GRIM_TP_SENT            4   /* sending NI: done with the message */
#define GRIM_TP_DECODE          5   /* receiving NI: decode and begin processing */
#define GRIM_TP_SEQUENCE        6   /* receiving NI: verify sequencing information */
#define GRIM_TP_CAPACITY        7   /* receiving NI: destination capacity check */
#define GRIM_TP_ACK             8   /* receiving NI: ACK/NACK generation */
#define GRIM_TP_ACK_DONE        9
#define GRIM_TP_DELIVERED       10  /* receiving NI: message in host memory (Table 5.2) */
#define GRIM_TP_QUEUE_PTR       11  /* receiving NI: back pointer DMAed (Table 5.2) */
#define GRIM_TP_NACK_RECEIVED   12
#define GRIM_TP_ROLLBACK        13
#define GRIM_TP_DELIVER         14  /* receiving NI: capacity checked, delivery starts */

/* The driver's configuration and the counters (uncached, the host reads them). */
extern volatile struct grim_shared grim_shared;
#define COUNT(field) (grim_shared.counters.field++)

/* ---- engines.c ---- */
int send_busy(void);
void send_start(uint32_t sram_offset, uint32_t bytes, uint32_t dst);
void hdma_to_host(uint32_t host_addr, uint32_t sram_offset, uint32_t bytes);  /* waits */
void engines_boot(uint32_t ring_offset, uint32_t ring_bytes);
void wait_event(void);   /* sleep until an interrupt source is raised */
static inline volatile uint32_t *sram_word(uint32_t offset)
{
    return (volatile uint32_t *)(uintptr_t)LANAI_SRAM(offset);
}

/* ---- wire.c ---- */
uint32_t wire_load(uint32_t sram_offset);               /* big-endian word from SRAM */
void wire_store(uint32_t sram_offset, uint32_t value);  /* big-endian word to SRAM */
struct grim_header {
    uint32_t w[GRIM_HEADER_WORDS];  /* host order */
};
void wire_read_header(uint32_t sram_offset, struct grim_header *h, unsigned words);
uint32_t wire_payload_bytes(const struct grim_header *h);

/* ---- scoreboard.c ---- */
enum sb_state { SB_FREE = 0, SB_SENT, SB_ACKED, SB_RESEND };
struct sb_entry {
    uint32_t offset;     /* SRAM offset of the entry in its LC's send queue */
    uint32_t bytes;      /* bytes on the wire: header + padded payload */
    uint32_t end;        /* the LC's monotonic send-queue position after the entry */
    uint16_t dst;        /* destination node */
    uint8_t lc, dst_lc;
    uint8_t seq;
    uint8_t state;
};
extern struct sb_entry scoreboard[GRIM_SCOREBOARD];
int scoreboard_full(void);
uint32_t scoreboard_next_token(void);                 /* the slot the next insert takes */
uint32_t scoreboard_insert(const struct sb_entry *e);  /* returns the token */
void scoreboard_ack(uint32_t src, uint32_t token, uint32_t seq);
void scoreboard_nack(uint32_t src, uint32_t token, uint32_t seq);
int scoreboard_resend_pending(uint32_t dst, uint32_t lc, uint32_t dst_lc);
int scoreboard_retransmit(void);  /* sends one rolled-back message if it may go now */
int dest_held(uint32_t dst);      /* in NACK backoff */

/* ---- lc_send.c ---- */
int lc_send(void);
void lc_boot(void);

/* ---- control.c ---- */
void control_post(uint32_t dst, uint32_t type, uint32_t token, uint32_t seq, uint32_t lc);
int control_send(void);
int control_full(void);  /* receiving stops until ACKs drain */
void control_boot(uint32_t sram_offset);
#define CONTROL_SLOTS 16u
#define CONTROL_SRAM_BYTES (CONTROL_SLOTS * 8u)

/* ---- recv.c ---- */
int recv_poll(void);
void recv_boot(void);

/* ---- deliver.c ---- */
/* Capacity of the destination endpoint for a message of this type (1: room). */
int deliver_capacity(const struct grim_header *h);
void deliver(const struct grim_header *h, uint32_t sram_offset, uint32_t bytes);
void deliver_boot(uint32_t staging_offset);

#endif /* GRIM_H */
