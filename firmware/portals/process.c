/* The generic process and its mailbox (seed 000 §4.1-4.2). */
#include "globals.h"

#include "niclab/fw/runtime.h"
#include "pending.h"
#include "process.h"

/* The host finds it by its symbol (NICLAB_MAILBOX_SYMBOL). */
FW_UNCACHED volatile struct niclab_mailbox niclab_mailbox;
struct process generic_process;

void process_boot(void)
{
    struct process *p = &generic_process;
    p->mailbox = &niclab_mailbox;
    p->pendings = lower_pendings;
    p->cmd.head = niclab_mailbox.cmd_head;
    p->cmd.tail = niclab_mailbox.cmd_tail;
    p->res.head = niclab_mailbox.res_head;
    p->res.tail = niclab_mailbox.res_tail;
    niclab_mailbox.entries = NICLAB_MAILBOX_ENTRIES;
    niclab_mailbox.magic = NICLAB_MAILBOX_MAGIC;
    process = p;  /* N = 1: the current process never changes */
}
