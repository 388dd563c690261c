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
 *   translate.c  the NI's virtual-memory translation cache and its miss path (§4.5.2)
 *   rm.c         RM-V, RM-RV and its reply: remote memory by virtual address (§4.5.3-4)
 *   cut_through.c the cut-through data path (§5.5.4), in the grim_cutthrough images only
 *   multicast.c  multicast by NI recycling: trees, tickets, the multicast queue (§8.1)
 * Trace points (trace.h) mark the steps of Tables 5.1-5.3; their values name the step
 * (GRIM_TP_* below), so the per-step costs can be read from a trace.
 */
#ifndef GRIM_H
#define GRIM_H

#include <stdint.h>

#include "niclab/fw/grim_fw.h"
#include "niclab/fw/lanai.h"
#include "niclab/fw/runtime.h"
#include "niclab/fw/trace.h"

/* The data path of this image (GRIM_DP_*, grim_fw.h): CMakeLists.txt defines it. */
#ifndef GRIM_DATAPATH
#define GRIM_DATAPATH GRIM_DP_STORE_FORWARD
#endif

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
/* Table 5.3 (L1378-1387): remote memory at the receiving NI. */
#define GRIM_TP_XLATE_SEARCH    15  /* search the NI's translation cache */
#define GRIM_TP_XLATE_HIT       16  /* ... found */
#define GRIM_TP_XLATE_MISS      17  /* ... not found */
#define GRIM_TP_XLATE_REQUESTED 18  /* translation request DMAed to the host, interrupt raised */
#define GRIM_TP_XLATE_FILLED    19  /* the driver's answer is in NI memory */
#define GRIM_TP_RM_LOCK_DONE    20  /* notification (lock) word DMAed */
/* Multicast (§8.1.6, Fig. 8.6) at each NI of a tree. */
#define GRIM_TP_MC_RECEIVED     21  /* a multicast message or tree update begins processing */
#define GRIM_TP_MC_TICKET       22  /* ticket labelled (root) or checked (hop) */
#define GRIM_TP_MC_COPY         23  /* on-card copy into the multicast queue begins (L2085) */
#define GRIM_TP_MC_COPIED       24  /* ... ends */
#define GRIM_TP_MC_FORWARD      25  /* a copy to a child NI started */
#define GRIM_TP_MC_UPDATE       26  /* tree tables updated (§8.1.5) */
#define GRIM_TP_MC_LOCAL        27  /* delivered into a subscribed local endpoint's AM queue */
/* Link errors: a message dropped for a bad CRC (receiving NI), a rollback by the
 * retransmission timer (sending NI). */
#define GRIM_TP_CRC_DROP        32
#define GRIM_TP_TIMEOUT         33
/* Fig. 4.10 (§4.3.4): the sending NI's scan of its configured LCs begins, and found
 * nothing. Only in the scan image (GRIM_TRACE_SCAN, CMakeLists.txt): on every pass of
 * the main loop they would crowd Tables 5.1-5.3's steps out of the trace ring. */
#define GRIM_TP_SCAN            34
#define GRIM_TP_SCAN_EMPTY      35

/* The driver's configuration and the counters (uncached, the host reads them). */
extern volatile struct grim_shared grim_shared;
#define COUNT(field) (grim_shared.counters.field++)

/* ---- engines.c ---- */
int send_busy(void);
void send_start(uint32_t sram_offset, uint32_t bytes, uint32_t dst);
#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH
void send_start_go(uint32_t sram_offset, uint32_t bytes, uint32_t dst, uint32_t go);  /* LANAI_SEND_GO_* */
#endif
void hdma_to_host(uint32_t host_addr, uint32_t sram_offset, uint32_t bytes);  /* waits */
void hdma_from_host(uint32_t host_addr, uint32_t sram_offset, uint32_t bytes);  /* waits */
uint32_t send_done_count(void);  /* messages the send engine has finished */
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
    uint8_t timeouts;    /* times the retransmission timer found it unanswered */
    uint32_t sent_at;    /* low word of mtime when it last went (the timer's start) */
};
/* The rings (scoreboard.c): the host's logical channels, the multicast recycle channel. */
#define SB_HOST  0u
#define SB_MC    1u
#define SB_RINGS 2u
extern struct sb_entry scoreboard[SB_RINGS * GRIM_SCOREBOARD];
int scoreboard_full(uint32_t ring);
uint32_t scoreboard_next_token(uint32_t ring);        /* the token the ring's next insert takes */
uint32_t scoreboard_insert(uint32_t ring, const struct sb_entry *e);  /* returns the token */
void scoreboard_insert_done(const struct sb_entry *e); /* handled on the card: frees in order */
void scoreboard_ack(uint32_t src, uint32_t token, uint32_t seq);
void scoreboard_nack(uint32_t src, uint32_t token, uint32_t seq);
void scoreboard_error(uint32_t src, uint32_t token, uint32_t seq);  /* GRIM_T_ERROR */
void scoreboard_gap(uint32_t src, uint32_t token, uint32_t seq, uint32_t expected);  /* GRIM_T_GAP */
int scoreboard_resend_pending(uint32_t dst, uint32_t lc, uint32_t dst_lc);
int scoreboard_retransmit(void);  /* sends one rolled-back message if it may go now */
int dest_held(uint32_t dst);      /* in NACK backoff */
/* Main loop, nothing else to do: arms the retransmission timer while messages are in
 * flight, and when it is due rolls back an unanswered message's pair (1) or gives it
 * up after resend_limit tries (the host is told). */
int scoreboard_idle(void);

/* ---- lc_send.c ---- */
int lc_send(void);
void lc_boot(void);
uint32_t lc_take_seq(uint32_t dst, uint32_t lc, uint32_t dst_lc);  /* next outgoing sequence number */

/* ---- control.c ---- */
void control_post(uint32_t dst, uint32_t type, uint32_t token, uint32_t seq, uint32_t lc);
void control_post_gap(uint32_t dst, uint32_t token, uint32_t seq, uint32_t lc, uint32_t expected);  /* GRIM_T_GAP */
int control_send(void);
int control_full(void);  /* receiving stops until ACKs drain */
void control_boot(uint32_t sram_offset);
#define CONTROL_SLOTS 16u
#define CONTROL_SRAM_BYTES (CONTROL_SLOTS * 8u)

/* ---- recv.c ---- */
int recv_poll(void);
void recv_boot(void);
/* A message a packet of which failed its CRC (lanai.h): dropped whole, unanswered;
 * the sender's timer resends it. */
void recv_crc_drop(uint32_t desc, uint32_t used);
#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH
/* For cut_through.c: the sequence number expected of a data message from `src`, and
 * a cut-through delivery finished (sequence advanced, ACK queued, ring slot freed). */
uint32_t recv_expected_seq(uint32_t src, const struct grim_header *h);
void recv_delivered(uint32_t src, const struct grim_header *h, uint32_t desc, uint32_t used);

/* ---- cut_through.c ---- */
int ct_recv_active(void);
int ct_recv_start(uint32_t desc, uint32_t ring_head);  /* 1: the message at desc streams */
int ct_recv_step(void);
int ct_send_feed(void);       /* a partial send is on: give the engine what has come */
int ct_send_partial(uint32_t lc, uint32_t start, uint32_t off, uint32_t bytes, uint32_t dst);  /* 1: started partial */
#endif

/* ---- deliver.c ---- */
/* Capacity of the destination endpoint for a message of this type (1: room). */
int deliver_capacity(const struct grim_header *h);
void deliver(const struct grim_header *h, uint32_t sram_offset, uint32_t bytes);
void deliver_boot(uint32_t staging_offset);
int deliver_am_room(uint32_t lc);                     /* a free slot in LC lc's AM queue */
void deliver_am_lc(uint32_t lc, uint32_t sram_offset, uint32_t bytes);  /* an AM into LC lc's queue */
void dma_word(uint32_t host_addr, uint32_t value);  /* 4 bytes to host memory, waits */
#define STAGING_BYTES 64u  /* SRAM the DMAs of a few words are made from */
#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH
/* Cut-through delivery of an AM or RM-P in pieces: the host address of the message's
 * byte 0 (AM: its queue slot; RM-P: the target less the header, which stays here), and
 * the back count or notification word after the last piece. */
uint32_t deliver_host_base(const struct grim_header *h, uint32_t bytes);
void deliver_done(const struct grim_header *h);
#endif

/* ---- translate.c ---- */
enum xlate_outcome { XLATE_HIT = 0, XLATE_WAIT, XLATE_FAULT };
struct xlate_map {
    uint32_t entry;    /* index into grim_shared.xlate.entry */
    uint32_t offset;   /* of the address in the entry's block */
};
/* Finds [va, va + bytes) in the cache; on a miss asks the host (one request at a
 * time) and says XLATE_WAIT until its answer is in; XLATE_FAULT when the host has
 * not registered the range. */
int xlate(uint32_t va, uint32_t bytes, struct xlate_map *m);
/* Host DMA between SRAM and the translated range, one transfer per physical run. */
void xlate_dma(const struct xlate_map *m, uint32_t sram_offset, uint32_t bytes, int to_host);
void xlate_boot(uint32_t request_staging);

/* ---- rm.c ---- */
enum rm_outcome { RM_DONE = 0, RM_WAIT, RM_REFUSED };
/* Starts a remote memory message at the head of the receive ring: RM_WAIT holds the
 * ring until rm_resume() says otherwise. */
int rm_start(const struct grim_header *h, uint32_t src, uint32_t sram_offset);
int rm_resume(void);
int rm_reply_send(void);     /* main loop: a pending RM-RV reply goes before new messages */
/* Sends that go before new messages, by bit: an RM-RV reply waiting for the send engine
 * (rm.c), multicast copies in the multicast queue (multicast.c). The main loop looks at
 * this one word, not a call, on every pass: unicast traffic pays nothing more for it. */
extern uint32_t sends_pending;
#define PENDING_RM_REPLY 1u
#define PENDING_MC       2u
void rm_boot(uint32_t reply_offset, uint32_t error_staging);
void rm_report_error(uint32_t lc, uint32_t type, uint32_t node, uint32_t va);
uint32_t rm_fault_va(void);  /* the address an RM_REFUSED operation could not reach */
#define RM_REPLY_SRAM_BYTES ((GRIM_HEADER_BYTES + GRIM_MTU + 63u) & ~63u)

/* ---- multicast.c ---- */
enum mc_outcome { MC_ACCEPTED = 0, MC_REFUSED, MC_MISROUTED, MC_BAD };
/* A multicast message or tree update, whole at SRAM `off` (`wire` bytes): an injection
 * (from a host LC) or a hop (from the parent NI). MC_REFUSED: NACK it (at the root
 * from a local LC: try again later); MC_MISROUTED: this NI is not the tree's root. */
int mc_process(const struct grim_header *h, uint32_t off, uint32_t wire);
int mc_send(void);             /* main loop (sends_pending & PENDING_MC): the next copy out */
void mc_freed(uint32_t end);   /* scoreboard: the multicast queue is free up to `end` */
void mc_boot(void);

#endif /* GRIM_H */
