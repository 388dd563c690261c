/*
 * Reporting the accelerated process's drops (puts and gets that matched nothing)
 * without overrunning its event queue. Every other event belongs to a pending, and
 * the pendings bound the queue (portals_fw.h); a drop holds no pending, so a sender
 * aiming at a process that does not enter its library could fill the queue with them.
 * At most PTL_ACCEL_DROP_EVENTS drop events are unread at a time (the library says
 * when it took them: PTL_CMD_DROPS_SEEN); drops beyond that are counted and carried
 * by the next drop event, so every drop still reaches the library's drop_count.
 */
#include "globals.h"

#include "accel.h"

#if PTL_ACCEL

#include "event.h"
#include "niccb.h"

static uint32_t unread;      /* drop events in the EQ that the library has not taken */
static uint32_t unreported;  /* drops no event has reported yet */

void accel_drops_reset(void)
{
    unread = 0;
    unreported = 0;
}

static void report(uint32_t src)
{
    if (unreported == 0 || unread == PTL_ACCEL_DROP_EVENTS)
        return;
    ++unread;
    event_post(PTL_EV_DROPPED, 0, unreported, src);
    unreported = 0;
}

void accel_report_drop(uint32_t src)
{
    NICCB_INC(accel_drops);
    ++unreported;
    report(src);
}

void accel_drops_seen(volatile const uint32_t *cmd)
{
    uint32_t seen = cmd[PTL_DROPS_SEEN_EVENTS];
    unread = seen < unread ? unread - seen : 0;
    report(0xFFFFFFFFu);  /* drops counted while the queue had no room: source unknown */
    trace_val(seen);
}

#else
/* ISO C forbids an empty translation unit. */
typedef int ptl_accel_drops_not_built;
#endif /* PTL_ACCEL */
