/*
 * The generic-mode host interface of the C Portals firmware (firmware/portals/,
 * seed 000 §4 and seed 001 §4), shared by the firmware and its host driver, the
 * SeaStar NAL (cpp/src/msg/portals/ss_nal.cpp). Everything the two sides exchange is
 * defined here: the NIC control block the host reads, the mailbox commands, the
 * generic event queue in host memory, the upper pendings and the Portals header
 * that travels in a message's first 64-byte packet.
 *
 * Pending ids (per firmware-level process; there is one, the generic process):
 *   0 .. tx_pendings-1                      the host-managed TX pool
 *   tx_pendings .. tx_pendings+rx_pendings-1 the firmware-managed RX pool
 * Each id has a lower pending in cached SRAM (firmware only) and an upper pending
 * in host memory (PTL_UPPER_BYTES each, in id order, reached by the firmware through
 * host window 0, which the driver opens before PTL_CMD_INIT).
 *
 * A message on the wire is the 64-byte header (struct ptl_hdr) followed by the
 * payload. With the very-small-message optimization (PTL_FW_FEAT_VSMALL) the host
 * puts a payload of up to PTL_INLINE_BYTES into the header itself and sends no
 * payload: the message is one packet, complete when its header arrives.
 */
#ifndef NICLAB_FW_PORTALS_FW_H
#define NICLAB_FW_PORTALS_FW_H

#include <stdint.h>

/* ---- NIC control block (seed 000 §4.2): uncached SRAM, ELF symbol "niccb". The
 * firmware fills the configuration words before it sets its running flag; the
 * counters it keeps up to date (write-through from a cached copy when built with
 * PTL_FW_FEAT_WRITE_THROUGH). The host reads it with programmed I/O. ---- */
#define PTL_NICCB_SYMBOL         "niccb"
#define PTL_NICCB_MAGIC          0x50544C33u  /* "PTL3" */
#define PTL_FW_VERSION           1u

/* Build options of the image (struct ptl_niccb.features), seed 000 §5. */
#define PTL_FW_FEAT_ICACHE        0x01u  /* instruction cache on (§5.1) */
#define PTL_FW_FEAT_DCACHE        0x02u  /* data cache on (§5.1) */
#define PTL_FW_FEAT_VSMALL        0x04u  /* very-small-message optimization (§5.2) */
#define PTL_FW_FEAT_WRITE_THROUGH 0x08u  /* cached shadows of the NIC control block and FIFO indices (§5.3) */
#define PTL_FW_FEAT_PINNED        0x10u  /* globals pinned in registers (§5.4) */
#define PTL_FW_FEAT_TRACE         0x20u  /* trace points compiled in (§3.3) */
#define PTL_FW_FEAT_GO_BACK_N     0x40u  /* RX pending/source exhaustion drops and NACKs instead of
                                          * panicking (§4.3.3): TX_DONE waits for the receiver's ACK */
#define PTL_FW_FEAT_ACCEL         0x80u  /* an accelerated process (§4.1): its own mailbox
                                          * (PTL_ACCEL_MAILBOX_SYMBOL), matching in the firmware */

struct ptl_niccb {
    uint32_t magic;            /* PTL_NICCB_MAGIC once the firmware is up */
    uint32_t version;          /* PTL_FW_VERSION */
    uint32_t features;         /* PTL_FW_FEAT_* */
    uint32_t tx_pendings;      /* size of the host-managed TX pool */
    uint32_t rx_pendings;      /* size of the firmware-managed RX pool */
    uint32_t sources;          /* source structures (one per active peer node) */
    uint32_t segments;         /* DMA segments for non-contiguous buffers */
    uint32_t pending_bytes;    /* sizeof(lower pending): the P_size of seed 000 §4.2 */
    uint32_t source_bytes;     /* sizeof(source): S_size */
    uint32_t sram_structs;     /* M = S*S_size + sum P_i*P_size, in bytes */
    /* counters */
    uint32_t tx_messages;      /* transmits completed */
    uint32_t rx_messages;      /* messages whose header arrived */
    uint32_t host_interrupts;  /* interrupts raised to the host */
    uint32_t events;           /* events posted to the generic EQ */
    uint32_t rx_in_use;        /* RX pendings allocated now */
    uint32_t rx_in_use_max;    /* ... high-water mark */
    uint32_t sources_in_use;
    uint32_t sources_in_use_max;
    uint32_t tx_fifo_yields;   /* times the TX state machine found the FIFO full */
    /* go-back-N (PTL_FW_FEAT_GO_BACK_N; all stay 0 without it) */
    uint32_t ctrl_pendings;    /* configuration: upper pendings after the RX pool that carry the
                                * firmware's own ACK/NACK headers (the host allocates them) */
    uint32_t rx_drops;         /* messages dropped: no RX pending or source, or not the expected sequence number */
    uint32_t nacks_sent;
    uint32_t nacks_received;
    uint32_t acks_sent;
    uint32_t acks_received;
    uint32_t retransmits;      /* messages queued again after a NACK */
    /* accelerated mode (PTL_FW_FEAT_ACCEL; all stay 0 without it) */
    uint32_t accel_matches;    /* puts and gets the firmware matched for the accelerated process */
    uint32_t accel_drops;      /* ... that matched nothing (the firmware discarded them) */
    uint32_t accel_examined;   /* match entries the firmware looked at */
    uint32_t accel_events;     /* events posted to the accelerated EQ (never an interrupt) */
    uint32_t accel_mes;        /* configuration: match entries and MDs of the accelerated pools */
    uint32_t accel_mds;
    /* go-back-N, sending side */
    uint32_t tx_source_waits;  /* transmits that waited for a free source (a host command cannot be dropped) */
    uint32_t tx_skips;         /* messages whose payload could not be read, sent as PTL_MSG_FW_SKIP */
    uint32_t skips_received;
};                             /* 140 bytes */

/* ---- Mailbox commands (struct niclab_mailbox, niclab/fw/mailbox.h: the generic
 * process's mailbox is the symbol "niclab_mailbox"). Word 0 is the opcode. Only
 * PTL_CMD_INIT returns a result; everything else answers through the event queue. */
#define PTL_CMD_OP              0
#define PTL_CMD_INIT            1u
#define PTL_CMD_TX              2u
#define PTL_CMD_RX              3u
#define PTL_CMD_SEG             4u
#define PTL_CMD_RELEASE         5u

/* PTL_CMD_INIT: where the generic process's host structures are. */
#define PTL_INIT_UPPER_PHYS_LO  1   /* host physical address of upper pending 0 (TX DMA reads headers there) */
#define PTL_INIT_UPPER_PHYS_HI  2
#define PTL_INIT_UPPER_WINDOW   3   /* the same, as a core address inside an open host window */
#define PTL_INIT_EQ_WINDOW      4   /* core address of event queue slot 0 (same window) */
#define PTL_INIT_EQ_ENTRIES     5   /* power of two, > tx_pendings + rx_pendings */
/* Result of PTL_CMD_INIT (result FIFO): word 0 PTL_RES_INIT, word 1 status. */
#define PTL_RES_INIT            1u
#define PTL_RES_STATUS          1
#define PTL_INIT_OK             0u
#define PTL_INIT_BAD_EQ         1u   /* EQ too small or not a power of two */

/* PTL_CMD_TX: transmit the header in the pending's upper half, then the payload. */
#define PTL_TX_PENDING          1   /* id in the TX pool */
#define PTL_TX_DST              2   /* target node id */
#define PTL_TX_ADDR_LO          3   /* payload: host physical address ... */
#define PTL_TX_ADDR_HI          4
#define PTL_TX_LENGTH           5   /* ... and bytes (0: header only) */
#define PTL_TX_FLAGS            6
#define PTL_TX_SEGS             0x1u /* payload is the pending's PTL_CMD_SEG list, not ADDR/LENGTH */

/* PTL_CMD_RX: deposit an announced message (PTL_EV_NEW_MSG). The header is skipped,
 * the next LENGTH payload bytes go to ADDR (or the SEG list), the rest is discarded.
 * LENGTH 0 discards the whole payload (no match, or a header-only message). */
#define PTL_RX_PENDING          1   /* id in the RX pool */
#define PTL_RX_ADDR_LO          2
#define PTL_RX_ADDR_HI          3
#define PTL_RX_LENGTH           4
#define PTL_RX_FLAGS            5
#define PTL_RX_SEGS             0x1u

/* PTL_CMD_SEG: append one contiguous host region to a pending's DMA list, for a
 * following TX or RX with the SEGS flag (a non-contiguous buffer: the host
 * pre-computes the DMA commands, seed 000 §4.3.1). */
#define PTL_SEG_PENDING         1
#define PTL_SEG_ADDR_LO         2
#define PTL_SEG_ADDR_HI         3
#define PTL_SEG_LENGTH          4
#define PTL_MAX_SEGS            32u  /* regions per message */

/* PTL_CMD_RELEASE: the host is done with an RX pending's upper half (seed 000 §4.3.2). */
#define PTL_RELEASE_PENDING     1

/* ---- Accelerated mode (seed 000 §4.1, §4.3.2; PTL_FW_FEAT_ACCEL). The kernel's
 * driver sets the accelerated process up through the generic mailbox (process
 * initialization cannot be offloaded): PTL_CMD_ACCEL_INIT names its pid and its own
 * host region (upper pendings, then its EQ, in a window the driver opened for it).
 * From then on the process's user-level library posts to its dedicated mailbox (ELF
 * symbol PTL_ACCEL_MAILBOX_SYMBOL) with no system call: PTL_CMD_TX, _RX, _RELEASE as
 * in generic mode (pending ids of its own pools, same layout), and the match-list
 * commands below, which keep a copy of its match entries and MDs in SRAM. The
 * firmware matches its puts and gets itself, deposits puts, sends get replies, and
 * posts events to its EQ without interrupting the host; replies and acks for it are
 * announced (PTL_EV_NEW_MSG*) for its library, which answers with PTL_CMD_RX. Only
 * contiguous buffers (no PTL_CMD_SEG): seed 001 §3.3. ---- */
#define PTL_ACCEL_MAILBOX_SYMBOL "ptl_accel_mailbox"
#define PTL_CMD_ACCEL_INIT      6u   /* generic mailbox, words as PTL_CMD_INIT plus: */
#define PTL_ACCEL_INIT_PID      6    /* the accelerated process's Portals pid */
#define PTL_ACCEL_INIT_UID      7    /* its uid (replies carry it) */
/* Word 0 of the match-list commands: opcode in bits 0-7, flags in 8-15. */
#define PTL_CMD_OPCODE(w)       ((w) & 0xFFu)
#define PTL_CMD_ME_ATTACH       7u
#define PTL_CMD_MD_ATTACH       8u
#define PTL_CMD_ME_UNLINK       9u
#define PTL_CMD_MD_UNLINK       10u
#define PTL_ME_FLAG_AFTER       0x100u  /* PTL_INS_AFTER (else before) */
#define PTL_ME_FLAG_UNLINK      0x200u  /* the entry goes when its MD goes (PTL_UNLINK) */
#define PTL_ME_FLAG_BASE        0x400u  /* PtlMEInsert: relative to entry PTL_ME_BASE */
/* PTL_CMD_ME_ATTACH: entry indices are the library's handle slots (0 .. accel_mes-1). */
#define PTL_ME_INDEX            1   /* bits 0-15: the entry; bits 16-31: PTL_ME_BASE */
#define PTL_ME_PT               2   /* portal table index */
#define PTL_ME_NID              3   /* match_id (PTL_NID_ANY: 0xFFFFFFFF) */
#define PTL_ME_PID              4   /* match_id (PTL_PID_ANY: 0xFFFFFFFF) */
#define PTL_ME_BITS_LO          5
#define PTL_ME_BITS_HI          6
/* The ignore bits do not fit the 8 words: PTL_CMD_ME_IGNORE, posted just before the
 * PTL_CMD_ME_ATTACH, carries them for the next attach. */
#define PTL_CMD_ME_IGNORE       11u
#define PTL_ME_IGNORE_LO        1
#define PTL_ME_IGNORE_HI        2
/* PTL_CMD_MD_ATTACH (flags: PTL_ME_FLAG_UNLINK = the MD's own unlink_op). */
#define PTL_MD_INDEX            1   /* bits 0-15: the MD; bits 16-31: its entry */
#define PTL_MD_START_LO         2
#define PTL_MD_START_HI         3
#define PTL_MD_LENGTH           4
#define PTL_MD_THRESHOLD        5   /* -1: PTL_MD_THRESH_INF */
#define PTL_MD_MAX_SIZE_W       6
#define PTL_MD_OPTIONS          7
/* PTL_CMD_ME_UNLINK / PTL_CMD_MD_UNLINK: a round trip. The firmware may have matched
 * the MD after the library last looked at its EQ, so it decides and answers with
 * PTL_EV_UNLINK_ANSWER (word 2: the index, word 3: one of PTL_UNLINK_*), after every
 * event it posted before; the library unlinks only on PTL_UNLINK_DONE. */
#define PTL_UNLINK_INDEX        1
#define PTL_UNLINK_DONE         0u  /* unlinked in the firmware */
#define PTL_UNLINK_BUSY         1u  /* operations in flight on it: PTL_MD_IN_USE / PTL_ME_IN_USE */
#define PTL_UNLINK_ABSENT       2u  /* already gone: unlinked by the firmware on its last operation */
/* PTL_CMD_MD_COUNT: the library counted an operation on an attached MD that the
 * firmware did not match (a put sent from it, an ack or a reply it took, §3.10.1),
 * so the firmware's threshold goes down too. Word 1: the MD index. */
#define PTL_CMD_MD_COUNT        12u
#define PTL_COUNT_INDEX         1
/* PTL_CMD_DROPS_SEEN: the library took word 1's number of PTL_EV_DROPPED events from
 * its EQ. Drops hold no pending, so the firmware posts at most PTL_ACCEL_DROP_EVENTS
 * unread drop events and counts further drops into the next one: a process that does
 * not enter its library cannot have its EQ overrun, and no drop goes unreported. */
#define PTL_CMD_DROPS_SEEN      13u
#define PTL_DROPS_SEEN_EVENTS   1
#define PTL_ACCEL_DROP_EVENTS   4u

/* ---- Generic event queue: PTL_EQ_BYTES-byte slots in host memory, written by the
 * firmware through the host window, word 0 last: a slot holds an event when its word
 * 0 is non-zero; the host clears word 0 after reading it. The firmware raises one
 * host interrupt after posting a batch. The queue cannot overflow: every pending has
 * at most one unread event (the host consumes an RX pending's NEW_MSG before it
 * answers with PTL_CMD_RX, and frees a pending only after its last event). ---- */
#define PTL_EQ_BYTES            16u
#define PTL_EV_TYPE             0
#define PTL_EV_PENDING          1
#define PTL_EV_WORD2            2   /* NEW_MSG*: message bytes incl. header; *_DONE: NICLAB_DMA_* status */
#define PTL_EV_WORD3            3   /* NEW_MSG*: source node id; *_DONE: payload bytes moved */
#define PTL_EV_NEW_MSG          1u  /* header in the upper pending; answer with PTL_CMD_RX */
#define PTL_EV_NEW_MSG_COMPLETE 2u  /* header-only message, nothing to deposit (VSMALL): answer with PTL_CMD_RELEASE */
#define PTL_EV_TX_DONE          3u  /* the TX pending is free again */
#define PTL_EV_RX_DONE          4u  /* deposit finished; answer with PTL_CMD_RELEASE */
/* Accelerated EQ only. Word 0: the type in bits 0-7, the MD the firmware matched in
 * bits 16-31; word 2: offset in the MD; word 3: mlength. The header is in the upper
 * pending. */
#define PTL_EV_MATCHED          5u  /* put: depositing, RX_DONE follows; get: reply queued, TX_DONE follows */
#define PTL_EV_MATCHED_COMPLETE 6u  /* header-only put: the payload (if any) is inline; answer with RELEASE */
#define PTL_EV_DROPPED          7u  /* puts or gets matched nothing (pending: none; word 2: how many; word 3: last source) */
#define PTL_EV_UNLINK_ANSWER    8u  /* PTL_CMD_ME_UNLINK/MD_UNLINK decided (pending: none; words above) */
#define PTL_EV_TYPE_OF(w)       ((w) & 0xFFu)
#define PTL_EV_MD_OF(w)         ((w) >> 16)

/* ---- Upper pendings: PTL_UPPER_BYTES each in host memory; the first 64 bytes hold
 * the message's Portals header (written by the host for a transmit, by the firmware
 * for a receive), the rest belongs to the host - except for a get the firmware
 * answers for the accelerated process: its reply header goes in the second 64 bytes.
 * ---- */
#define PTL_UPPER_BYTES         128u
#define PTL_HDR_BYTES           64u
#define PTL_INLINE_BYTES        12u  /* seed 000 §5.2: payload capacity of the header packet */

/* ---- The Portals header: the first packet of every message (seed 001 §6). ---- */
#define PTL_MSG_PUT             1u
#define PTL_MSG_GET             2u
#define PTL_MSG_REPLY           3u
#define PTL_MSG_ACK             4u
/* Firmware-to-firmware control messages of go-back-N (PTL_FW_FEAT_GO_BACK_N): header
 * only, dst_pid PTL_PID_FIRMWARE, ack = the sender's next expected sequence number
 * (every message before it was accepted). Never shown to a host. */
#define PTL_MSG_FW_ACK          0x81u  /* cumulative acknowledgement */
#define PTL_MSG_FW_NACK         0x82u  /* ... and "go back": retransmit from seq on */
#define PTL_MSG_FW_SKIP         0x83u  /* in place of a message whose payload the sender could not read
                                        * (a host fault): it carries that message's seq, so the numbers
                                        * stay whole; the receiver counts it taken and shows no host */
#define PTL_PID_FIRMWARE        0xFFFFu
#define PTL_HDR_ACK_REQ         0x01u  /* put: the initiator wants an acknowledgement */
#define PTL_HDR_INLINE          0x02u  /* payload is in ptl_hdr.inline_data */

struct ptl_hdr {
    uint8_t type;             /* PTL_MSG_* */
    uint8_t flags;            /* PTL_HDR_* */
    uint16_t pt_index;        /* portal table index */
    uint32_t src_nid;
    uint16_t src_pid;
    uint16_t dst_pid;         /* the firmware finds the target process by it */
    uint32_t length;          /* put/reply: payload bytes; get: bytes requested */
    uint32_t match_bits_lo;
    uint32_t match_bits_hi;
    uint32_t offset;          /* put/get: remote offset; reply/ack: offset in the target MD */
    uint32_t md_cookie;       /* initiator's MD (get, reply, ack: who to tell) */
    uint32_t hdr_data_lo;
    uint32_t hdr_data_hi;
    uint32_t mlength;         /* reply/ack: bytes the target manipulated */
    uint16_t uid;
    uint16_t ac_index;        /* access control entry */
    /* Go-back-N (PTL_FW_FEAT_GO_BACK_N), written by the sending firmware into the upper
     * pending as one word; the host leaves both 0. */
    uint16_t seq;             /* the message's number in its sender's stream to this node */
    uint16_t ack;             /* piggybacked cumulative ACK: the sender has taken every message
                               * of the receiver's stream to it before this number */
    uint8_t inline_data[PTL_INLINE_BYTES];
};

/* Byte offset of dst_pid in struct ptl_hdr (the firmware reads it from the RX event's
 * header copy). */
#define PTL_HDR_DST_PID_OFFSET  10u
/* Byte offset of the word holding seq (low half) and ack (high half). */
#define PTL_HDR_SEQ_OFFSET      48u

#endif /* NICLAB_FW_PORTALS_FW_H */
