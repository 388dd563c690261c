/* The generic process and its mailbox, and the accelerated process and its own
 * (seed 000 §4.1-4.2). */
#include "globals.h"

#include "niclab/fw/runtime.h"
#include "pending.h"
#include "process.h"

/* The host finds it by its symbol (NICLAB_MAILBOX_SYMBOL). */
FW_UNCACHED volatile struct niclab_mailbox niclab_mailbox;
struct process generic_process;
#if PTL_ACCEL
/* The host finds it by PTL_ACCEL_MAILBOX_SYMBOL. */
FW_UNCACHED volatile struct niclab_mailbox ptl_accel_mailbox;
struct process accel_process;
#endif

static void boot_one(struct process *p, volatile struct niclab_mailbox *mb, struct lower_pending *pool)
{
    p->mailbox = mb;
    p->pendings = pool;
    p->cmd.head = mb->cmd_head;
    p->cmd.tail = mb->cmd_tail;
    p->res.head = mb->res_head;
    p->res.tail = mb->res_tail;
    mb->entries = NICLAB_MAILBOX_ENTRIES;
    mb->magic = NICLAB_MAILBOX_MAGIC;
}

void process_boot(void)
{
#if PTL_ACCEL
    boot_one(&accel_process, &ptl_accel_mailbox, lower_pendings + PTL_PENDINGS);
#endif
    boot_one(&generic_process, &niclab_mailbox, lower_pendings);
    /* Handlers set `process` to the one they work for (mailbox, arrival, pending). */
    process = &generic_process;
}

int process_init_host(struct process *p, volatile const uint32_t *cmd)
{
    uint32_t entries = cmd[PTL_INIT_EQ_ENTRIES];
    if (entries == 0 || (entries & (entries - 1u)) || entries <= PTL_PENDINGS)
        return 0;
    p->upper_phys_lo = cmd[PTL_INIT_UPPER_PHYS_LO];
    p->upper_phys_hi = cmd[PTL_INIT_UPPER_PHYS_HI];
    p->upper_window = cmd[PTL_INIT_UPPER_WINDOW];
    p->eq_window = cmd[PTL_INIT_EQ_WINDOW];
    p->eq_mask = entries - 1u;
    p->eq_tail = 0;
    p->initialized = 1;
    return 1;
}
