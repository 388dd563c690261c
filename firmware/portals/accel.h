/*
 * Accelerated mode (seed 000 §4.1, §4.3.2; seed 001 §3.3): the accelerated process's
 * match entries and memory descriptors, kept in SRAM so the firmware can match its
 * incoming puts and gets itself, with no interrupt asking the host where a message
 * goes. Its user-level library mirrors every PtlMEAttach/Insert/Unlink and
 * PtlMDAttach/Unlink into these tables through its own mailbox (portals_fw.h); entry
 * and MD indices are the library's handle slots, so both sides name them alike. The
 * semantics are the library's, from the shared niclab/fw/portals_match.h; the order
 * of the walk, the threshold and offset bookkeeping and the automatic unlinks below
 * follow cpp/src/msg/portals/library_ops.cpp step for step, so the library can
 * replay the firmware's decision (Library::commit) and end in the same state.
 *
 * References are index + 1 (0: none), so the pools need no boot-time clearing
 * except the portal table heads and the "in use" flags (accel_reset).
 */
#ifndef PTL_ACCEL_H
#define PTL_ACCEL_H

#include <stdint.h>

#include "config.h"

#if PTL_ACCEL

struct accel_me {
    uint32_t match_lo, match_hi;    /* match bits */
    uint32_t ignore_lo, ignore_hi;  /* ignore bits */
    uint32_t nid, pid;              /* match_id; 0xFFFFFFFF: any */
    uint16_t next, prev;            /* the portal's match list, in walk order */
    uint16_t md;                    /* its MD (reference), 0: none */
    uint16_t pt;
    uint8_t used;
    uint8_t unlink;                 /* PTL_UNLINK: goes when its MD goes */
    uint16_t pad;
};

struct accel_md {
    uint32_t start_lo, start_hi;    /* contiguous host buffer (seed 001 §3.3) */
    uint32_t length;
    uint32_t local_offset;
    int32_t threshold;              /* -1: PTL_MD_THRESH_INF */
    uint32_t max_size;
    uint16_t options;
    uint16_t me;                    /* its entry (reference) */
    uint16_t busy;                  /* deposits and replies in flight */
    uint8_t used;
    uint8_t unlink;                 /* PTL_UNLINK: unlinked once inactive and idle */
};

_Static_assert(sizeof(struct accel_me) == 36, "update pools_report.cmake");
_Static_assert(sizeof(struct accel_md) == 32, "update pools_report.cmake");

/* What a match decided: the MD (reference), where and how much. */
struct accel_match {
    uint32_t md;
    uint32_t offset;
    uint32_t mlength;
    uint32_t examined;  /* entries looked at */
};

/* PTL_CMD_ACCEL_INIT from the kernel (generic mailbox): a new accelerated process,
 * with empty tables. */
void accel_init_command(volatile const uint32_t *cmd);
/* The match-list commands of the accelerated mailbox. */
void accel_me_ignore(volatile const uint32_t *cmd);
void accel_me_attach(volatile const uint32_t *cmd);
void accel_md_attach(volatile const uint32_t *cmd);
void accel_me_unlink(volatile const uint32_t *cmd);
void accel_md_unlink(volatile const uint32_t *cmd);
void accel_md_count(volatile const uint32_t *cmd);
void accel_drops_seen(volatile const uint32_t *cmd);

/* §2.2: walk portal `pt`'s list for a put (PTL_MATCH_OP_PUT) or get from
 * (src_nid, src_pid); the first entry whose criteria match and whose MD accepts
 * takes it: its threshold and local offset are updated and it is held until
 * accel_md_done. 0: nothing took it. */
int accel_match(uint32_t pt, uint32_t src_nid, uint32_t src_pid, uint32_t bits_lo, uint32_t bits_hi, uint32_t op,
                uint32_t rlength, uint32_t roffset, struct accel_match *m);
/* An operation on MD `md` (reference) finished: release it and unlink it (and its
 * entry, if that was attached with PTL_UNLINK) when it is inactive, PTL_UNLINK and
 * idle - the library does the same when it sees the event. */
void accel_md_done(uint32_t md);

extern struct accel_md accel_mds[PTL_ACCEL_MDS];

/* The MD a pending of the accelerated pool deposits into or replies from
 * (reference), by pending id. */
extern uint16_t accel_pending_md[PTL_PENDINGS];

/* A put or get for the accelerated process matched nothing: it is counted, and
 * reported by a PTL_EV_DROPPED as soon as the EQ has room for one (portals_fw.h). */
void accel_report_drop(uint32_t src);
/* A new accelerated process: no drops counted or reported. */
void accel_drops_reset(void);

/* rx.c, for a put or get to the accelerated process: `pending` holds the message
 * (header in its upper half, source referenced). Match it and deposit, reply, or
 * drop. */
void accel_arrival(volatile const uint32_t *hdr, uint32_t slot, uint32_t length, uint32_t src);

#endif /* PTL_ACCEL */
#endif /* PTL_ACCEL_H */
