/*
 * The accelerated process's match lists and MDs in SRAM, and matching in the
 * firmware (seed 000 §4.3.2). accel.h explains the tables; the semantics are
 * niclab/fw/portals_match.h's, shared with the host library.
 */
#include "globals.h"

#include "accel.h"

#if PTL_ACCEL

#include "niclab/fw/portals_match.h"
#include "event.h"
#include "niccb.h"
#include "panic.h"
#include "process.h"

PTL_POOL struct accel_me accel_mes[PTL_ACCEL_MES];
PTL_POOL struct accel_md accel_mds[PTL_ACCEL_MDS];
PTL_POOL uint16_t accel_portals[PTL_ACCEL_PORTALS];  /* head of each match list (reference) */
PTL_POOL uint16_t accel_pending_md[PTL_PENDINGS];
static uint32_t next_ignore_lo, next_ignore_hi;      /* from PTL_CMD_ME_IGNORE, for the next attach */

static inline struct accel_me *me_at(uint32_t ref) { return &accel_mes[ref - 1u]; }
static inline struct accel_md *md_at(uint32_t ref) { return &accel_mds[ref - 1u]; }

void accel_init_command(volatile const uint32_t *cmd)
{
    struct process *p = &accel_process;
    trace();
    /* The kernel's driver checked the EQ; a bad one is a driver bug. */
    if (!process_init_host(p, cmd))
        fw_panic(reason_value("PTL_CMD_ACCEL_INIT: EQ entries not a power of two above the pendings:",
                              cmd[PTL_INIT_EQ_ENTRIES]));
    for (uint32_t i = 0; i < PTL_ACCEL_PORTALS; ++i)
        accel_portals[i] = 0;
    for (uint32_t i = 0; i < PTL_ACCEL_MES; ++i)
        accel_mes[i].used = 0;
    for (uint32_t i = 0; i < PTL_ACCEL_MDS; ++i)
        accel_mds[i].used = 0;
    accel_drops_reset();
    p->pid = (uint16_t)cmd[PTL_ACCEL_INIT_PID];
    p->uid = (uint16_t)cmd[PTL_ACCEL_INIT_UID];
}

/* ---- commands ---- */

static uint32_t me_ref(uint32_t index, const char *what)
{
    if (index >= PTL_ACCEL_MES)
        fw_panic(reason_value(what, index));
    return index + 1u;
}

static uint32_t md_ref(uint32_t index, const char *what)
{
    if (index >= PTL_ACCEL_MDS)
        fw_panic(reason_value(what, index));
    return index + 1u;
}

void accel_me_ignore(volatile const uint32_t *cmd)
{
    next_ignore_lo = cmd[PTL_ME_IGNORE_LO];
    next_ignore_hi = cmd[PTL_ME_IGNORE_HI];
}

/* Link entry `ref` into portal `pt`'s list before `at` (0: at the tail). */
static void link_before(uint32_t pt, uint32_t ref, uint32_t at)
{
    struct accel_me *e = me_at(ref);
    uint32_t prev;
    if (at) {
        prev = me_at(at)->prev;
        me_at(at)->prev = (uint16_t)ref;
    } else {
        /* The tail: walk from the head (lists are short; no tail pointer to keep). */
        prev = 0;
        for (uint32_t r = accel_portals[pt]; r; r = me_at(r)->next)
            prev = r;
    }
    e->next = (uint16_t)at;
    e->prev = (uint16_t)prev;
    if (prev)
        me_at(prev)->next = (uint16_t)ref;
    else
        accel_portals[pt] = (uint16_t)ref;
}

void accel_me_attach(volatile const uint32_t *cmd)
{
    uint32_t flags = cmd[PTL_CMD_OP];
    uint32_t ref = me_ref(cmd[PTL_ME_INDEX] & 0xFFFFu, "ME_ATTACH: entry index beyond the pool:");
    struct accel_me *e = me_at(ref);
    if (e->used)
        fw_panic(reason_value("ME_ATTACH: entry already in use:", ref - 1u));
    uint32_t pt;
    uint32_t before;  /* the entry to link in front of, 0: the tail */
    if (flags & PTL_ME_FLAG_BASE) {
        uint32_t base = me_ref(cmd[PTL_ME_INDEX] >> 16, "ME_ATTACH: base entry beyond the pool:");
        if (!me_at(base)->used)
            fw_panic(reason_value("ME_ATTACH: base entry not in use:", base - 1u));
        pt = me_at(base)->pt;
        before = (flags & PTL_ME_FLAG_AFTER) ? me_at(base)->next : base;
    } else {
        pt = cmd[PTL_ME_PT];
        if (pt >= PTL_ACCEL_PORTALS)
            fw_panic(reason_value("ME_ATTACH: portal index beyond the table:", pt));
        before = (flags & PTL_ME_FLAG_AFTER) ? 0u : accel_portals[pt];
    }
    e->match_lo = cmd[PTL_ME_BITS_LO];
    e->match_hi = cmd[PTL_ME_BITS_HI];
    e->ignore_lo = next_ignore_lo;
    e->ignore_hi = next_ignore_hi;
    next_ignore_lo = next_ignore_hi = 0;
    e->nid = cmd[PTL_ME_NID];
    e->pid = cmd[PTL_ME_PID];
    e->md = 0;
    e->pt = (uint16_t)pt;
    e->unlink = (flags & PTL_ME_FLAG_UNLINK) ? 1u : 0u;
    e->used = 1;
    link_before(pt, ref, before);
    trace_val(ref);
}

void accel_md_attach(volatile const uint32_t *cmd)
{
    uint32_t ref = md_ref(cmd[PTL_MD_INDEX] & 0xFFFFu, "MD_ATTACH: MD index beyond the pool:");
    uint32_t me = me_ref(cmd[PTL_MD_INDEX] >> 16, "MD_ATTACH: entry index beyond the pool:");
    struct accel_md *d = md_at(ref);
    if (d->used || !me_at(me)->used || me_at(me)->md)
        fw_panic(reason_value("MD_ATTACH: MD in use or entry missing or taken: MD", ref - 1u));
    d->start_lo = cmd[PTL_MD_START_LO];
    d->start_hi = cmd[PTL_MD_START_HI];
    d->length = cmd[PTL_MD_LENGTH];
    d->threshold = (int32_t)cmd[PTL_MD_THRESHOLD];
    d->max_size = cmd[PTL_MD_MAX_SIZE_W];
    d->options = (uint16_t)cmd[PTL_MD_OPTIONS];
    d->local_offset = 0;
    d->busy = 0;
    d->me = (uint16_t)me;
    d->unlink = (cmd[PTL_CMD_OP] & PTL_ME_FLAG_UNLINK) ? 1u : 0u;
    d->used = 1;
    me_at(me)->md = (uint16_t)ref;
    trace_val(ref);
}

static void unlink_me(uint32_t ref)
{
    struct accel_me *e = me_at(ref);
    if (e->prev)
        me_at(e->prev)->next = e->next;
    else
        accel_portals[e->pt] = e->next;
    if (e->next)
        me_at(e->next)->prev = e->prev;
    e->used = 0;
}

/* The library's unlink_md: the MD goes; its entry loses it, and goes too if it was
 * attached with PTL_UNLINK. */
static void unlink_md(uint32_t ref)
{
    struct accel_md *d = md_at(ref);
    struct accel_me *e = me_at(d->me);
    d->used = 0;
    e->md = 0;
    if (e->unlink)
        unlink_me(d->me);
    trace_val(ref);
}

/* The library asks before it unlinks: this MD may have been matched since it last
 * looked at its EQ (portals_fw.h, PTL_CMD_MD_UNLINK). The answer follows every event
 * posted before it, so the library has replayed them when it reads it. */
static void answer_unlink(uint32_t index, uint32_t status)
{
    event_post(PTL_EV_UNLINK_ANSWER, 0, index, status);
}

void accel_md_unlink(volatile const uint32_t *cmd)
{
    uint32_t ref = md_ref(cmd[PTL_UNLINK_INDEX], "MD_UNLINK: MD index beyond the pool:");
    struct accel_md *d = md_at(ref);
    uint32_t status = !d->used ? PTL_UNLINK_ABSENT : d->busy ? PTL_UNLINK_BUSY : PTL_UNLINK_DONE;
    if (status == PTL_UNLINK_DONE)
        unlink_md(ref);
    answer_unlink(ref - 1u, status);
}

void accel_me_unlink(volatile const uint32_t *cmd)
{
    uint32_t ref = me_ref(cmd[PTL_UNLINK_INDEX], "ME_UNLINK: entry index beyond the pool:");
    struct accel_me *e = me_at(ref);
    uint32_t status = !e->used ? PTL_UNLINK_ABSENT : (e->md && md_at(e->md)->busy) ? PTL_UNLINK_BUSY : PTL_UNLINK_DONE;
    if (status == PTL_UNLINK_DONE) {
        if (e->md) {
            e->unlink = 0;  /* removed below, whatever its own unlink_op (as the library) */
            unlink_md(e->md);
        }
        unlink_me(ref);
    }
    answer_unlink(ref - 1u, status);
}

/* ---- matching ---- */

static int md_inactive(const struct accel_md *d)
{
    return ptl_md_inactive(d->threshold, d->options, d->length, d->local_offset, d->max_size);
}

int accel_match(uint32_t pt, uint32_t src_nid, uint32_t src_pid, uint32_t bits_lo, uint32_t bits_hi, uint32_t op,
                uint32_t rlength, uint32_t roffset, struct accel_match *m)
{
    m->examined = 0;
    if (pt >= PTL_ACCEL_PORTALS)
        return 0;
    uint64_t bits = (uint64_t)bits_hi << 32 | bits_lo;
    for (uint32_t ref = accel_portals[pt]; ref; ref = me_at(ref)->next) {
        const struct accel_me *e = me_at(ref);
        m->examined++;
        if (!ptl_me_matches(e->nid, e->pid, (uint64_t)e->match_hi << 32 | e->match_lo,
                            (uint64_t)e->ignore_hi << 32 | e->ignore_lo, src_nid, src_pid, bits))
            continue;
        if (!e->md)
            continue;
        struct accel_md *d = md_at(e->md);
        if (!(d->options & op) || md_inactive(d))
            continue;
        uint64_t offset = ptl_md_target_offset(d->options, d->local_offset, roffset), mlength;
        if (!ptl_md_fit(d->options, d->length, offset, rlength, &mlength))
            continue;
        /* Commit, as MemoryDescriptor::commit_incoming. */
        if (d->threshold > 0)
            d->threshold--;
        if (!(d->options & PTL_MATCH_MANAGE_REMOTE))
            d->local_offset = (uint32_t)(offset + mlength);
        d->busy++;
        m->md = e->md;
        m->offset = (uint32_t)offset;
        m->mlength = (uint32_t)mlength;
        NICCB_ADD(accel_examined, m->examined);
        trace_val(ref);
        return 1;
    }
    NICCB_ADD(accel_examined, m->examined);
    return 0;
}

/* Unlink MD `ref` if PTL_UNLINK and it just became inactive and idle: what the
 * library does when the operation's last event reaches it. */
static void unlink_if_due(uint32_t ref)
{
    struct accel_md *d = md_at(ref);
    if (d->unlink && d->busy == 0 && md_inactive(d))
        unlink_md(ref);
}

void accel_md_done(uint32_t ref)
{
    md_at(ref)->busy--;
    unlink_if_due(ref);
}

void accel_md_count(volatile const uint32_t *cmd)
{
    uint32_t ref = md_ref(cmd[PTL_COUNT_INDEX], "MD_COUNT: MD index beyond the pool:");
    struct accel_md *d = md_at(ref);
    /* Gone already: the firmware's own last match used its threshold up and unlinked
     * it while the library's count was on its way. */
    if (!d->used)
        return;
    if (d->threshold > 0)
        d->threshold--;
    unlink_if_due(ref);
    trace_val(ref);
}

#else
/* ISO C forbids an empty translation unit. */
typedef int ptl_accel_match_not_built;
#endif /* PTL_ACCEL */
