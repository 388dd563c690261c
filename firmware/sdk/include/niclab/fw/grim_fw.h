/*
 * GRIM's message format and its host interface (seed 004 Ch. IV), shared by the GRIM
 * firmware (firmware/grim) and the host library (cpp/src/systems/grim).
 *
 * The message header is Figure 4.2's eight 32-bit words in network byte order (big
 * endian, L969), then the payload padded to whole words:
 *
 *   W0  GRIM ID 0x0636 (16) | NI token (8)       | NI sequence (8)
 *   W1  type (6) | payload correction (2) | multicast tree (8) | source endpoint (16)
 *   W2  payload word length (16)                 | destination endpoint (16)
 *   W3  logical channel (16)                     | active-message handler (16)
 *   W4..W7  user arguments 0..3
 *
 * Field widths the thesis does not print (digest ambiguity 6) are chosen here: token
 * and sequence 8 bits each (the token indexes the sender's 64-entry scoreboard, and
 * go-back-N never has more than 64 messages in flight, so an 8-bit sequence cannot
 * wrap onto a live one); endpoints 16 bits as the figure's layout implies, an
 * endpoint id being node << 4 | logical channel (the u32 resource id of Table C.2 has
 * no room in the header, so it is reduced to what the NIs need).
 *
 * ACK and NACK are the abbreviated 8-byte header of L1000: W0 as above (the token
 * and sequence of the message they answer), W1 the type and the logical channel.
 *
 * Remote memory uses the arguments for its addresses (L998, L1193; their assignment
 * is not given, digest §2.6):
 *   RM-P  (§4.5.3)  W4 target host physical address, W5 physical address of the
 *                   notification word (0: none), W6 notification value, W7 user
 *   RM-V  (§4.5.3)  as RM-P with virtual addresses (W4 target VA, W5 notification VA)
 *   RM-RV (§4.5.4)  W4 the remote VA to fetch, W5 the local VA for the result, W6 the
 *                   length in bytes, W7 the local lock VA (0: none) -- a read "carries
 *                   more information in the message header and therefore only allow[s]
 *                   the user to specify the virtual address of a variable" (L1193)
 *   RM-RV reply     W0 the request's token and sequence (the reply is its ACK, L1189),
 *                   W4 the local VA for the result, W5 the lock VA, payload the data
 * A remote virtual address that the receiving host has not registered is refused
 * with GRIM_T_ERROR (the abbreviated header, like a NACK) and nothing is written.
 */
#ifndef NICLAB_FW_GRIM_FW_H
#define NICLAB_FW_GRIM_FW_H

#ifdef __cplusplus
#include <cstdint>
#else
#include <stdint.h>
#endif

#define GRIM_ID                 0x0636u   /* registered with Myricom, L973 */
#define GRIM_HEADER_WORDS       8u
#define GRIM_HEADER_BYTES       32u
#define GRIM_CONTROL_BYTES      8u
#define GRIM_MTU                64572u    /* payload bytes, Fig. 4.2 */

/* Message types (6 bits; L990 lists the classes, not the codes). */
#define GRIM_T_AM               0x01u
#define GRIM_T_RM_P             0x02u
#define GRIM_T_RM_V             0x03u
#define GRIM_T_RM_RV            0x04u     /* read request */
#define GRIM_T_RM_RV_REPLY      0x05u     /* its data, and its ACK */
#define GRIM_T_ACK              0x30u
#define GRIM_T_NACK             0x31u
#define GRIM_T_ERROR            0x32u     /* the message named memory its target never registered */
/* A message came out of sequence and nothing was refused before it: the one expected
 * was lost (a bad CRC, lanai.h). W0 names the message that came (token, sequence),
 * W1's multicast-tree field the sequence number expected; the sender goes back to
 * that one at once (the receiving NI's NACK when it "sees the next sequence out of
 * order"; not in the thesis, whose Myrinet loses nothing, L1012). */
#define GRIM_T_GAP              0x33u
/* Multicast by NI recycling (§8.1, L1996-2099; see "Multicast" below). */
#define GRIM_T_MC               0x06u     /* an AM for a multicast tree */
#define GRIM_T_MC_UPDATE        0x07u     /* in-band tree update (§8.1.5, L2071) */

#define GRIM_W0(token, seq)     ((GRIM_ID << 16) | (((token) & 0xFFu) << 8) | ((seq) & 0xFFu))
#define GRIM_W1(type, pcorr, tree, src_ep) \
    ((((type) & 0x3Fu) << 26) | (((pcorr) & 0x3u) << 24) | (((tree) & 0xFFu) << 16) | ((src_ep) & 0xFFFFu))
#define GRIM_W2(words, dst_ep)  ((((words) & 0xFFFFu) << 16) | ((dst_ep) & 0xFFFFu))
#define GRIM_W3(lc, handler)    ((((lc) & 0xFFFFu) << 16) | ((handler) & 0xFFFFu))
#define GRIM_W0_ID(w)           ((w) >> 16)
#define GRIM_W0_TOKEN(w)        (((w) >> 8) & 0xFFu)
#define GRIM_W0_SEQ(w)          ((w) & 0xFFu)
#define GRIM_W1_TYPE(w)         ((w) >> 26)
#define GRIM_W1_PCORR(w)        (((w) >> 24) & 0x3u)
#define GRIM_W1_SRC_EP(w)       ((w) & 0xFFFFu)
#define GRIM_W2_WORDS(w)        ((w) >> 16)
#define GRIM_W2_DST_EP(w)       ((w) & 0xFFFFu)
#define GRIM_W3_LC(w)           ((w) >> 16)
#define GRIM_W3_HANDLER(w)      ((w) & 0xFFFFu)

#define GRIM_ENDPOINT(node, lc) ((((node) & 0xFFFu) << 4) | ((lc) & 0xFu))
#define GRIM_EP_NODE(ep)        ((ep) >> 4)
#define GRIM_EP_LC(ep)          ((ep) & 0xFu)

/* ---- The host interface: struct grim_shared (the firmware's symbol `grim_shared`,
 * uncached SRAM) holds the driver's configuration, one block per logical channel and
 * the firmware's counters. Little-endian words (both sides are). ---- */
#define GRIM_MAX_NODES          64u
/* Logical channels (§4.3.4, Fig. 4.10): the driver configures how many the NI scans
 * (grim_shared.lcs), up to GRIM_MAX_LCS, the thesis's recommended maximum for the
 * LANai 4 ("no more than 8", L1121; 24 for the LANai 9). Eight also fill the multicast
 * subscription mask (a u8, Table C.8) and leave the endpoint id's 4-bit LC field room
 * for the multicast channel. More would need a wider LC field and 3-D sequence arrays
 * the 1 MB SRAM cannot hold for 64 nodes (each (node, LC, LC) array is nodes x LCs^2). */
#define GRIM_MAX_LCS            8u
#define GRIM_SCOREBOARD         64u
#define GRIM_FW_MAGIC           0x4752494Du   /* "GRIM" */
#define GRIM_FW_VERSION         5u   /* 2: remote memory with translation; 3: multicast; 4: link errors; 5: LCs configured */

/* The data path an image was built with (§5.5, firmware/grim/CMakeLists.txt). A
 * pipelined or cut-through image says so in its symbol `grim_datapath` (a word in
 * SRAM); an image without it is store-and-forward. The host library fragments (and,
 * cut-through, segments) by it. */
#define GRIM_DP_STORE_FORWARD   0u   /* §5.5.1: each stage takes the whole message */
#define GRIM_DP_PIPELINED       1u   /* §5.5.2-3: the same, the library fragments finely */
#define GRIM_DP_CUT_THROUGH     2u   /* §5.5.4-5: receiver and cooperative sender cut-through */

/* Send queue entries (append-style, §4.2.2): the header then the payload, padded to
 * 64 bytes so the host can inject with 64-byte block stores. An entry that would run
 * past the queue's end is not split: the host writes GRIM_WRAP_MARK as its W0 there
 * and puts the entry at the queue's start. */
#define GRIM_QUEUE_ALIGN        64u
#define GRIM_WRAP_MARK          0xFFFFFFFFu
#define GRIM_ENTRY_BYTES(payload) \
    ((GRIM_HEADER_BYTES + (((payload) + 3u) & ~3u) + GRIM_QUEUE_ALIGN - 1u) & ~(GRIM_QUEUE_ALIGN - 1u))
/* Cut-through images: the host may move the LC's sq_back into the middle of an entry
 * after each segment it has written (whole 64-byte blocks, the header's first): the
 * NI may send what is there and the rest as it comes (§5.5.4, L1457). */

/* AM receive queue in pinned host memory (§5.4.2): `slots` slots of `slot_bytes`,
 * each the message's header as it arrived (network order) and its payload. The NI
 * DMAs the message, then its back count (little-endian, the host's order) to
 * back_host_addr; the host returns slots by storing its front count into the LC
 * block with PIO (how the host gives space back is not in the thesis). */
struct grim_lc {
    uint32_t enabled;          /* host: 1 once the fields below are set */
    uint32_t sq_offset;        /* host: SRAM offset of the send queue */
    uint32_t sq_bytes;         /* host: its size (multiple of GRIM_QUEUE_ALIGN) */
    uint32_t sq_back;          /* host: bytes appended (monotonic) */
    uint32_t sq_front;         /* NI: bytes freed, all acknowledged (monotonic) */
    uint32_t rq_host_addr;     /* host: physical address of the AM queue */
    uint32_t rq_slots;         /* host */
    uint32_t rq_slot_bytes;    /* host */
    uint32_t rq_back_host_addr;/* host: where the NI DMAs its back count */
    uint32_t rq_front;         /* host: slots consumed (monotonic) */
    uint32_t rq_back;          /* NI: slots filled (monotonic) */
    uint32_t err_host_addr;    /* host: where the NI DMAs a struct grim_error_record */
    uint32_t resent;           /* NI: this LC's messages sent again (rollback by NACK, GAP or timer) */
};

/* What the sending NI DMAs to its host when a remote memory operation was refused
 * (GRIM_T_ERROR from the target, or a reply's local address unregistered): the
 * library turns a new count into a typed error. */
struct grim_error_record {
    uint32_t count;            /* errors so far (monotonic) */
    uint32_t type;             /* the refused message's type */
    uint32_t node;             /* the node that refused it */
    uint32_t va;               /* the virtual address (W4) of the refused message */
};
/* In a record's type: the message was never acknowledged, not refused (its target
 * NI did not answer resend_limit retransmissions); the low bits are its type. */
#define GRIM_ERR_UNDELIVERABLE  0x100u

struct grim_route {
    uint32_t bytes;            /* route bytes, first hop in the low byte */
    uint32_t length;           /* 0..LANAI_ROUTE_MAX */
};

struct grim_counters {
    uint32_t sent;             /* data messages transmitted, retransmissions included */
    uint32_t retransmits;
    uint32_t received;         /* data messages accepted in order */
    uint32_t out_of_order;     /* data messages dropped: not the expected sequence */
    uint32_t acks_sent, acks_received;
    uint32_t nacks_sent, nacks_received;
    uint32_t control_queued;   /* ACK/NACKs that waited in the control queue (§4.2.3) */
    uint32_t am_delivered, rm_delivered;
    uint32_t bad_messages;     /* not GRIM's id, or a type the NI does not know */
    uint32_t xlate_hits;       /* translations found in the NI's cache */
    uint32_t xlate_misses;     /* translations the host was asked for (one interrupt each) */
    uint32_t xlate_errors;     /* virtual addresses the host has not registered: refused */
    uint32_t remote_errors;    /* own messages refused by their target (GRIM_T_ERROR) */
    uint32_t rm_reads_served;  /* RM-RV requests answered with a reply */
    uint32_t rm_read_replies;  /* RM-RV replies stored into host memory */
    uint32_t mc_delivered;     /* multicast AMs put into local endpoints' queues */
    uint32_t mc_forwarded;     /* multicast copies sent to child NIs (one per child) */
    uint32_t mc_copied_bytes;  /* bytes the core copied into the multicast queue */
    uint32_t mc_ticket_refused;/* multicast messages NACKed: ticket not the one expected */
    uint32_t mc_refused_full;  /* NACKed: no room in the multicast queue or a local AM queue */
    uint32_t mc_updates;       /* tree updates applied */
    uint32_t mc_misrouted;     /* injections that reached a NI that is not the tree's root */
    /* Link errors (Myrinet's per-packet CRC-8, lanai.h; the retransmission timer). */
    uint32_t crc_drops;        /* messages dropped whole: a packet of theirs failed its CRC */
    uint32_t timeouts;         /* rollbacks by the retransmission timer (no ACK or NACK came) */
    uint32_t duplicates;       /* data messages seen again (their ACK was lost): answered again */
    uint32_t undeliverable;    /* messages given up after resend_limit timeouts (host told) */
};

/* The NI's virtual-memory translation cache (§4.5.2, Fig. 4.13): "a translation cache
 * that is divided into two regions", static entries programmed by the library for
 * large contiguous registered blocks, and dynamic entries filled at run time by the
 * driver's interrupt service routine on a miss. An entry is a virtual block, its size
 * and the physical runs that hold it (Fig. 4.13's caption). Sizes and the replacement
 * policy are not in the thesis (digest §2.13): assumption: 8 + 8 entries; a miss
 * takes the dynamic entries round robin; a dynamic entry holds up to 17 runs, what a
 * message of the MTU spans in 4 KB pages (Table 5.3's "17 pages", L1385). */
#define GRIM_XLATE_STATIC       8u
#define GRIM_XLATE_DYNAMIC      8u
#define GRIM_XLATE_RUNS         17u
#define GRIM_XLATE_OK           1u
#define GRIM_XLATE_UNREGISTERED 2u

struct grim_xlate_run {
    uint32_t pa;               /* host physical address */
    uint32_t bytes;
};

struct grim_xlate_entry {
    uint32_t valid;            /* written last by the host, cleared by the NI before reuse */
    uint32_t va;               /* the block's virtual address */
    uint32_t bytes;            /* its size: the runs' bytes add up to it */
    uint32_t runs;
    struct grim_xlate_run run[GRIM_XLATE_RUNS];
};

/* A miss: the NI DMAs this request to the driver's kernel memory and interrupts the
 * host (§4.5.2 L1171); the ISR fills entry[slot] and then answers in reply_seq. */
struct grim_xlate_request {
    uint32_t seq;              /* numbers the requests of this NI */
    uint32_t va;
    uint32_t bytes;
    uint32_t slot;             /* the dynamic entry the NI gives the answer */
};

struct grim_xlate {
    uint32_t request_host_addr;   /* host: kernel memory the requests go to */
    uint32_t reply_seq;           /* host: the request answered last */
    uint32_t reply_status;        /* host: GRIM_XLATE_OK or _UNREGISTERED */
    uint32_t reserved;
    struct grim_xlate_entry entry[GRIM_XLATE_STATIC + GRIM_XLATE_DYNAMIC];
};

/* ---- Multicast by NI recycling (§8.1.3-8.1.5, L2045-2075) ----
 * GRIM's single-recycle-queue scheme: every tree is ordered so that a NI's ancestors
 * have smaller ids (L2049), so recycled traffic only flows "down" and one outgoing
 * multicast logical channel per NI suffices. It is LC GRIM_MC_LC in the sequence
 * arrays (not a host LC: the firmware owns its queue, in SRAM the image leaves free).
 *
 * An endpoint injects a GRIM_T_MC through its own LC to the tree's root NI (W2's
 * destination endpoint: root node, LC GRIM_MC_LC; W1's tree field the tree). The root
 * labels it with the tree's next ticket (§8.1.5 L2075); every NI of the tree delivers
 * it as an AM to its subscribed local LCs (their AM queues) and copies it once into its
 * multicast queue, tagged with its children (up to two, §8.1.4 L2061), from where it is
 * sent to each child (digest ambiguity 10: one copy for all children, L2055, L2067).
 * A copy between NIs carries W1's source LC GRIM_MC_LC (a hop; the source node stays
 * the injecting endpoint's) and, assumption: the ticket in W3's logical-channel field
 * (16 bits; the header has no ticket field), the handler below it. A hop whose ticket
 * is not the one its NI expects for the tree is NACKed like a full queue (the normal
 * go-back-N path, digest §2.8 [DERIVED]).
 *
 * A tree update (GRIM_T_MC_UPDATE) carries the tree's complete NI list (L2073) as its
 * payload: struct grim_mc_update then `count` words, node ids ascending, each
 * GRIM_MC_MEMBER(node, lc_mask, was_member). The binary tree is the heap order of
 * that list: entry i's children are entries 2i+1 and 2i+2, so ancestors have smaller
 * ids (L2049); entry 0 is the root. It goes to the tree's current root (the owner of
 * the ticket counter; to the new root if the tree had none), which labels it with a
 * ticket, applies it and forwards it down the new tree; a root that is not the new
 * root hands it (and the counter) to the new root first. An NI that was not in the
 * previous tree takes the update's ticket as its base. */
#define GRIM_MC_LC              GRIM_MAX_LCS  /* the multicast recycle channel's index */
#define GRIM_SEQ_LCS            16u       /* host LCs + the multicast channel, rounded up to a
                                           * power of two: the sequence arrays index by shifts
                                           * (a multiply per message cost the LANai 4 ~1 us) */
#define GRIM_MC_TREES           256u      /* the header's tree field is 8 bits (L136-151) */
#define GRIM_MC_MEMBER(node, mask, was) (((node) & 0xFFFFu) | (((mask) & 0xFFu) << 16) | ((was) ? 1u << 24 : 0u))
#define GRIM_MC_MEMBER_NODE(m)  ((m) & 0xFFFFu)
#define GRIM_MC_MEMBER_MASK(m)  (((m) >> 16) & 0xFFu)
#define GRIM_MC_MEMBER_WAS(m)   (((m) >> 24) & 1u)
#define GRIM_W3_TICKET(w)       ((w) >> 16)

struct grim_mc_update {
    uint32_t epoch;            /* the owner's count of updates of this tree */
    uint32_t count;            /* NIs in the new tree (0: nobody subscribes) */
    /* uint32_t member[count] follows */
};

/* A NI's table for one tree (§8.1.4 L2067: the root, and forwarding information). */
struct grim_mc_tree {
    uint32_t epoch;            /* the update these entries come from (0: none yet) */
    uint16_t expected;         /* the next ticket this NI accepts */
    uint16_t next_ticket;      /* root only: the ticket it labels the next message with */
    uint8_t member, root, lc_mask, children;
    uint8_t child[2];
    uint16_t reserved;
};

struct grim_shared {
    uint32_t magic;            /* NI: GRIM_FW_MAGIC once initialised */
    uint32_t version;          /* NI: GRIM_FW_VERSION */
    uint32_t go;               /* host: 1 when the configuration below is complete */
    uint32_t nodes;            /* host */
    uint32_t sram_bytes;       /* host: the card's SRAM (1 or 2 MB) */
    uint32_t buffer_offset;    /* host: SRAM from here to sram_bytes is the NI's to use */
    uint32_t nack_backoff_cycles; /* host: wait before resending after a NACK */
    uint32_t node;             /* host: this NI's node id (multicast compares ids, §8.1.3) */
    /* host: resend a message not answered (ACK, NACK or ERROR) within this many core
     * cycles; give up after resend_limit such resends (0: never). Not in the thesis's
     * GRIM, which trusts Myrinet (L1012) and says a lossy network needs "timeout
     * mechanisms [that] automatically retransmit data and control messages" (L1018,
     * L2226): a packet with a bad CRC is dropped, so Myrinet here is one. */
    uint32_t resend_timeout_cycles;
    uint32_t resend_limit;
    uint32_t lcs;              /* host: logical channels the NI scans, 1..GRIM_MAX_LCS (§4.3.4) */
    struct grim_route routes[GRIM_MAX_NODES];
    struct grim_lc lc[GRIM_MAX_LCS];
    struct grim_counters counters;
    struct grim_xlate xlate;
    struct grim_mc_tree mc[GRIM_MC_TREES];   /* NI: its multicast tables (the host reads them) */
};

#endif /* NICLAB_FW_GRIM_FW_H */
