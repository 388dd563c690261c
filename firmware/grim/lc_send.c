/*
 * The sending side's logical channels (§4.3.1, Fig. 4.7): each LC's send queue in
 * SRAM has a front (freed, scoreboard.c), a back (appended by the host) and a next
 * pointer (the next message to transmit), kept as monotonic byte counts. The scan
 * visits the LCs round-robin from the one after the last served ("a simple
 * scheduling algorithm", L859: the thesis does not say which), so each has equal
 * access to the NI (L871-873).
 */
#include "grim.h"

static uint32_t next[GRIM_MAX_LCS];
static uint32_t rr;
static uint32_t lcs;  /* the LCs the driver configured (grim_shared.lcs): the scan's length */
/* The next sequence number per (destination NI, source LC, destination LC): the
 * outgoing 3-D array of §4.3.2. */
static uint8_t out_seq[GRIM_MAX_NODES][GRIM_SEQ_LCS][GRIM_SEQ_LCS];  /* + the multicast channel */

uint32_t lc_take_seq(uint32_t dst, uint32_t lc, uint32_t dst_lc)
{
    return out_seq[dst][lc][dst_lc]++;
}

void lc_boot(void)
{
    for (uint32_t i = 0; i < GRIM_MAX_LCS; ++i)
        next[i] = 0;
    rr = 0;
    lcs = grim_shared.lcs;
}

/* A multicast injected here for a tree whose root is this NI: "moved from its
 * outgoing logical channel into the NI's outgoing multicast logical channel when
 * buffer space is available" (§8.1.4 L2067), by the core (multicast.c); 0: not yet. */
static int mc_local(uint32_t lc, volatile struct grim_lc *L, uint32_t off, uint32_t words)
{
    const uint32_t entry = GRIM_ENTRY_BYTES(words * 4u);
    if (L->sq_back - next[lc] < entry)
        return 0;  /* cut-through: the host is still writing it; the copy needs it whole */
    struct grim_header h;
    wire_read_header(off, &h, GRIM_HEADER_WORDS);
    const int r = mc_process(&h, off, GRIM_HEADER_BYTES + words * 4u);
    if (r == MC_REFUSED)
        return 0;
    if (r == MC_MISROUTED)
        rm_report_error(lc, GRIM_W1_TYPE(h.w[1]), grim_shared.node, (h.w[1] >> 16) & 0xFFu);
    struct sb_entry e;
    e.offset = off;
    e.bytes = 0;
    e.end = next[lc] + entry;
    e.dst = (uint16_t)grim_shared.node;
    e.lc = (uint8_t)lc;
    e.dst_lc = (uint8_t)GRIM_MC_LC;
    e.seq = 0;
    scoreboard_insert_done(&e);
    next[lc] = e.end;
    return 1;
}

/* Transmits the message at `next` of `lc`; 0 if it may not go now. */
static int transmit(uint32_t lc, volatile struct grim_lc *L)
{
    const uint32_t pos = next[lc] & (L->sq_bytes - 1u);  /* a power of two (driver) */
    const uint32_t off = L->sq_offset + pos;
    if (*sram_word(off) == GRIM_WRAP_MARK) {
        /* The host put the next entry at the queue's start. */
        next[lc] += L->sq_bytes - pos;
        return 1;
    }
    struct grim_header h;
    wire_read_header(off + 4u, (struct grim_header *)&h.w[0], 2);   /* W1, W2 */
    const uint32_t dst_ep = GRIM_W2_DST_EP(h.w[1]);
    const uint32_t dst = GRIM_EP_NODE(dst_ep), dst_lc = GRIM_EP_LC(dst_ep);
    const uint32_t words = GRIM_W2_WORDS(h.w[1]);
    /* Only a multicast names the multicast channel (grim_fw.h): unicasts pay no test more. */
    const int mc = dst_lc >= GRIM_MAX_LCS && dst_lc == GRIM_MC_LC && GRIM_W1_TYPE(h.w[0]) >= GRIM_T_MC &&
                   GRIM_W1_TYPE(h.w[0]) <= GRIM_T_MC_UPDATE;
    if (dst >= grim_shared.nodes || (dst_lc >= GRIM_MAX_LCS && !mc) || words * 4u > GRIM_MTU + 3u)
        fw_panic("send queue entry with a bad destination endpoint or length: the host library wrote a bad header");
    /* Rolled-back messages of this pair go first, after the NACK's backoff (they are
     * held in the scoreboard until then). Other pairs to the same NI go on: "a message
     * is retransmitted only if previous messages to the same logical channel were
     * refused" (L1093), and holding them too would let a refused channel's resends
     * starve every other channel to that NI. */
    if (scoreboard_resend_pending(dst, lc, dst_lc))
        return 0;
    if (mc && dst == grim_shared.node)
        return mc_local(lc, L, off, words);

    trace_val(GRIM_TP_SET_VALUES);
    const uint32_t seq = out_seq[dst][lc][dst_lc]++;
    struct sb_entry e;
    e.offset = off;
    e.bytes = GRIM_HEADER_BYTES + words * 4u;
    e.end = next[lc] + GRIM_ENTRY_BYTES(words * 4u);
    e.dst = (uint16_t)dst;
    e.lc = (uint8_t)lc;
    e.dst_lc = (uint8_t)dst_lc;
    e.seq = (uint8_t)seq;
    e.state = SB_SENT;
    /* The token is the scoreboard slot the message takes; the slot is claimed after
     * the transmission starts (the insert overlaps the network send, L1340). */
    const uint32_t slot = scoreboard_next_token(SB_HOST);
    wire_store(off, GRIM_W0(slot, seq));
#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH
    /* The host may still be writing the message: send what is there (cut_through.c). */
    if (!ct_send_partial(lc, next[lc], off, e.bytes, dst))
#endif
    send_start(off, e.bytes, dst);
    trace_val(GRIM_TP_SCOREBOARD);
    scoreboard_insert(SB_HOST, &e);
    next[lc] = e.end;
    COUNT(sent);
    trace_val(GRIM_TP_SENT);
    return 1;
}

int lc_send(void)
{
#if GRIM_DATAPATH == GRIM_DP_CUT_THROUGH
    if (ct_send_feed())
        return 1;  /* a partial send is on: the engine stays busy until it is whole */
#endif
    if (send_busy() || scoreboard_full(SB_HOST))
        return 0;
    /* Every configured LC is looked at, opened or not: the cost of Fig. 4.10 grows
     * with the driver's configuration. The wrap is a compare, not a division. */
#ifdef GRIM_TRACE_SCAN
    trace_val(GRIM_TP_SCAN);
#endif
    uint32_t lc = rr;
    for (uint32_t i = 0; i < lcs; ++i) {
        volatile struct grim_lc *L = &grim_shared.lc[lc];
        if (L->enabled && next[lc] != L->sq_back) {
            trace_val(GRIM_TP_DETECT);
            if (transmit(lc, L)) {
                rr = lc + 1u == lcs ? 0u : lc + 1u;
                return 1;
            }
        }
        if (++lc == lcs)
            lc = 0;
    }
#ifdef GRIM_TRACE_SCAN
    trace_val(GRIM_TP_SCAN_EMPTY);
#endif
    return 0;
}
