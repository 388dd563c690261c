/*
 * Go-back-N on resource exhaustion (seed 000 §4.3.3: "we are working on a simple
 * go-back-n protocol to resolve resource exhaustion gracefully"). Built with
 * PTL_EXHAUSTION=PTL_EXHAUSTION_GO_BACK_N (the default, config.h).
 *
 * Every message carries a per-destination sequence number (ptl_hdr.seq, written by
 * the sender's firmware into the upper pending: one posted store). A receiver accepts only the next
 * expected number from each peer. When it cannot take a message - no RX pending, no
 * source - it drops it (the RX DMA engine discards its packets; nothing was taken),
 * enters "expecting seq N from peer P" and owes P a NACK(N); while in that state it
 * drops P's later messages silently (they will come again). A message ahead of the
 * expected number (a gap: its predecessors were dropped) is handled the same way.
 *
 * The NACK waits until the receiver has resources again (an RX pending and a source
 * free beyond the NACKs already outstanding), so the retransmission that answers it
 * is likely to be taken: no timers, no back-off guesses. It goes out from one of
 * PTL_CTRL_PENDINGS reserved control pendings, never from the pool that ran out.
 *
 * The sender keeps each TX pending (and so the host's buffer, whose TX_DONE is not
 * posted yet) until the receiver has acknowledged it: the message may have to go again
 * and only the host's buffer holds its payload. Acknowledgements are cumulative
 * ("every message before N was taken") and travel three ways, cheapest first:
 *  - piggybacked in ptl_hdr.ack of every message back to the peer (written with
 *    seq, one store): a reply, a Portals ACK or a ping-pong's pong acknowledges the request
 *    at no cost, and its sender sees the TX_DONE before the reply's NEW_MSG - the
 *    order the host library relies on (an MD is busy until its send is done);
 *  - in every NACK;
 *  - standalone (PTL_MSG_FW_ACK) after PTL_ACK_EVERY messages from a peer, or when a
 *    main-loop pass finds nothing else to do: one control message per burst, sent
 *    while the core would otherwise sleep. (A delay hoping for a message back to carry
 *    it needs the timer to wake wfi; the core model's timer wake-up scheduled an
 *    event in the past in a LogP run, so no timer for now.)
 * On NACK(N) the sender releases what came before N and puts every unacknowledged
 * message from N on back at the front of the TX queue, in order; those still in the
 * TX FIFO leave after the NACK, are dropped, and go again as they complete
 * (PEND_RESEND). A transmit that finds no source waits for one (tx.c): a host command
 * cannot be dropped. A message whose payload could not be read goes as a
 * PTL_MSG_FW_SKIP with its number (PEND_FAILED), so no number is ever lost.
 *
 * Control messages are header-only Portals messages to PTL_PID_FIRMWARE, type
 * PTL_MSG_FW_ACK or PTL_MSG_FW_NACK, ack = the receiver's expected number. They carry
 * no sequence number themselves: the network is reliable (link-level retry) and in
 * order between two nodes, and a lost exhaustion is all go-back-N repairs.
 */
#ifndef PTL_GBN_H
#define PTL_GBN_H

#include <stdint.h>

#include "config.h"

#if PTL_GBN

/* Per-peer state, indexed by node id. Pending and peer references are index + 1 so
 * that 0 means none. */
struct peer {
    uint16_t tx_seq;        /* sequence number of the next message to this peer */
    uint16_t tx_acked;      /* the peer accepted every message before this one */
    uint16_t rx_expect;     /* the only sequence number accepted next from this peer */
    uint16_t unacked_head;  /* sent, unacknowledged TX pendings, by sequence number */
    uint16_t unacked_tail;
    uint16_t owed_next;     /* next peer on the list of those owed an ACK or NACK */
    uint8_t flags;          /* PEER_* */
    uint8_t rx_unacked;     /* messages accepted since the last ACK or NACK */
    uint16_t pad;
};
_Static_assert(sizeof(struct peer) == 16, "update the PTL_PEERS comment in config.h");

/* Sequence numbers are 16 bits and compared modulo 2^16: a sender never has more than
 * PTL_TX_PENDINGS (< 2^15) messages unacknowledged. */
static inline int seq_before(uint32_t a, uint32_t b) { return (int16_t)(uint16_t)(a - b) < 0; }

extern struct peer gbn_peers[PTL_PEERS];
#if PTL_PEERS_LAZY
extern uint32_t gbn_peers_seen[(PTL_PEERS + 31) / 32];  /* bit nid: gbn_peers[nid] is set up */
void gbn_first_contact(uint32_t nid);
#endif

/* Boot: every peer at sequence number 0, nothing owed. */
void gbn_boot(void);
void gbn_bad_peer(uint32_t nid) __attribute__((noreturn));
/* The peer `nid`; panics when nid >= PTL_PEERS. Inline: on every message's path. */
static inline struct peer *peer_at(uint32_t nid)
{
    if (__builtin_expect(nid >= PTL_PEERS, 0))
        gbn_bad_peer(nid);
#if PTL_PEERS_LAZY
    if (__builtin_expect(!(gbn_peers_seen[nid >> 5] & (1u << (nid & 31))), 0))
        gbn_first_contact(nid);
#endif
    return &gbn_peers[nid];
}

/* tx_command: give `pending` the next sequence number to its source's node and write
 * it, with the cumulative ACK of that node's messages (which then needs no standalone
 * ACK), into the header in its upper pending. */
void gbn_tx_number(void);
/* tx_completions: `pending`'s message left (status, bytes as in the TX completion);
 * release it now if the peer already acknowledged it, else keep it unacknowledged. */
void gbn_tx_sent(uint32_t status, uint32_t bytes);

/* rx_events, for a message that is not a control message: 1 if it is the expected
 * sequence number from `src`. */
static inline int gbn_expected(struct peer *pe, uint32_t seq) { return seq == pe->rx_expect; }
/* The peer took every message before `ack`: post their TX_DONEs. */
void gbn_acked(struct peer *pe, uint32_t ack);
/* rx_events, for every message from a peer: its piggybacked cumulative ACK (inline:
 * it rarely says anything new except on a reply). */
static inline void gbn_rx_ack(struct peer *pe, uint32_t ack)
{
    if (seq_before(pe->tx_acked, ack))
        gbn_acked(pe, ack);
}
/* rx_events: the message `seq` from `src` was dropped (see above). */
void gbn_rx_dropped(struct peer *pe, uint32_t seq);
/* rx_events: the expected message from the peer was taken. */
void gbn_rx_accepted(struct peer *pe);
/* rx_events: a control message (dst_pid PTL_PID_FIRMWARE) from `src`; `hdr` is the
 * header copy in the RX event. */
void gbn_control(uint32_t src, volatile const uint32_t *hdr);

/* Main loop: send the ACKs and NACKs owed (ACKs only when a peer reached
 * PTL_ACK_EVERY or the pass was `idle`). Non-zero if it sent something. */
int gbn_progress(int idle);

#endif /* PTL_GBN */
#endif /* PTL_GBN_H */
