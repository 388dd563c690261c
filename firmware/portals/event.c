/* Posting to a process's event queue and interrupting the host for the generic one
 * (seed 000 §4.1, §4.3). The accelerated process's events are never followed by an
 * interrupt: its library polls the EQ when it is entered (§4.1, seed 001 §3.3). */
#include "globals.h"

#include "niclab/fw/runtime.h"
#include "event.h"
#include "niccb.h"
#include "process.h"

void event_post(uint32_t type, uint32_t id, uint32_t word2, uint32_t word3)
{
    struct process *p = process;
    volatile uint32_t *slot = (volatile uint32_t *)(uintptr_t)(p->eq_window + p->eq_tail * PTL_EQ_BYTES);
    p->eq_tail = (p->eq_tail + 1u) & p->eq_mask;
    /* The EQ cannot overflow (portals_fw.h), so the slot is not read first: a read
     * through the host window would be a HyperTransport round trip. */
    slot[PTL_EV_PENDING] = id;
    slot[PTL_EV_WORD2] = word2;
    slot[PTL_EV_WORD3] = word3;
    slot[PTL_EV_TYPE] = type;  /* last: the host polls word 0 */
    NICCB_INC(events);
#if PTL_ACCEL
    if (p != &generic_process) {
        NICCB_INC(accel_events);
        trace_val(type);
        return;
    }
#endif
    p->posted = 1;
    trace_val(type);
}

void host_interrupt(void)
{
    NICCB_INC(host_interrupts);  /* counted first: the host may read it in its handler */
    fw_ctrl_write(NICLAB_CTRL_HOST_IRQ, 1);
}

void event_flush(void)
{
    struct process *p = &generic_process;  /* the only interrupt-driven one */
    if (p->posted) {
        p->posted = 0;
        host_interrupt();
    }
}
