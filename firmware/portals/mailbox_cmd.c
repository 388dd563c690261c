/*
 * The processes' mailboxes (seed 000 §4.1): the host posts commands into the command
 * FIFO and rings the doorbell; the firmware takes them in order, the generic
 * process's (from the kernel) first, then the accelerated process's (from its
 * user-level library, no system call). Only
 * PTL_CMD_INIT returns a result (in the result FIFO); everything else answers later
 * through the event queue, so transmit commands stream without waiting.
 */
#include "globals.h"

#include "accel.h"
#include "event.h"
#include "handlers.h"
#include "niccb.h"
#include "panic.h"
#include "pending.h"
#include "process.h"

static void post_result(uint32_t op, uint32_t status)
{
    struct process *p = process;
    volatile struct niclab_mailbox *mb = p->mailbox;
    while (!fifo_has_room(&mb->res_head, &mb->res_tail, &p->res, NICLAB_MAILBOX_ENTRIES, 1))
        host_interrupt();  /* the host drains results in its interrupt handler */
    volatile uint32_t *r = mb->res[fifo_tail(&mb->res_tail, &p->res)];
    r[0] = op;
    r[PTL_RES_STATUS] = status;
    fifo_produce(&mb->res_tail, &p->res, NICLAB_MAILBOX_ENTRIES, 1);
    p->posted = 1;  /* interrupt at the end of this main-loop iteration */
}

/* Where the host structures are. The EQ must hold an event for every pending at
 * once, so it can never overflow (portals_fw.h). */
static void init_command(volatile const uint32_t *cmd)
{
    trace();
    post_result(PTL_RES_INIT, process_init_host(process, cmd) ? PTL_INIT_OK : PTL_INIT_BAD_EQ);
}

static void seg_command(volatile const uint32_t *cmd)
{
    uint32_t id = cmd[PTL_SEG_PENDING];
    if (id >= PTL_PENDINGS)
        fw_panic(reason_value("SEG command: pending id out of range:", id));
    pending = &process->pendings[id];
    /* Before the TX (a free TX id) or before the RX (announced, not yet commanded). */
    if (pending->state != (pending_is_tx(id) ? PEND_FREE : PEND_RX_ANNOUNCED))
        fw_panic(reason_value("SEG command for a pending already programmed: id", id));
    pending_add_segment(cmd[PTL_SEG_ADDR_LO], cmd[PTL_SEG_ADDR_HI], cmd[PTL_SEG_LENGTH]);
}

#if PTL_ACCEL
/* The accelerated process's own commands (accel.h); anything else is a library bug. */
static void accel_command(uint32_t op, volatile const uint32_t *cmd)
{
    switch (PTL_CMD_OPCODE(op)) {
    case PTL_CMD_TX: tx_command(cmd); return;
    case PTL_CMD_RX: rx_command(cmd); return;
    case PTL_CMD_RELEASE: rx_release(cmd); return;
    case PTL_CMD_ME_IGNORE: accel_me_ignore(cmd); return;
    case PTL_CMD_ME_ATTACH: accel_me_attach(cmd); return;
    case PTL_CMD_MD_ATTACH: accel_md_attach(cmd); return;
    case PTL_CMD_ME_UNLINK: accel_me_unlink(cmd); return;
    case PTL_CMD_MD_UNLINK: accel_md_unlink(cmd); return;
    case PTL_CMD_MD_COUNT: accel_md_count(cmd); return;
    case PTL_CMD_DROPS_SEEN: accel_drops_seen(cmd); return;
    }
    fw_panic(reason_value("unknown accelerated mailbox command: op", op));
}
#endif

static void generic_command(uint32_t op, volatile const uint32_t *cmd)
{
    switch (op) {
    case PTL_CMD_INIT: init_command(cmd); return;
    case PTL_CMD_TX: tx_command(cmd); return;
    case PTL_CMD_RX: rx_command(cmd); return;
    case PTL_CMD_SEG: seg_command(cmd); return;
    case PTL_CMD_RELEASE: rx_release(cmd); return;
#if PTL_ACCEL
    case PTL_CMD_ACCEL_INIT: accel_init_command(cmd); return;  /* the kernel sets it up (§4.1) */
#endif
    }
    fw_panic(reason_value("unknown mailbox command: op", op));
}

static int poll_one(struct process *p)
{
    volatile struct niclab_mailbox *mb = p->mailbox;
    int progress = 0;
    while (fifo_has_entry(&mb->cmd_head, &mb->cmd_tail, &p->cmd)) {
        volatile uint32_t *cmd = mb->cmd[fifo_head(&mb->cmd_head, &p->cmd)];
        uint32_t op = cmd[PTL_CMD_OP];
        if (op != PTL_CMD_INIT && !p->initialized)
            fw_panic(reason_value("mailbox command before PTL_CMD_INIT: op", op));
#if PTL_ACCEL
        process = p;  /* handlers work for the mailbox's process */
        if (p != &generic_process)
            accel_command(op, cmd);
        else
#endif
            generic_command(op, cmd);
        fifo_consume(&mb->cmd_head, &p->cmd, NICLAB_MAILBOX_ENTRIES);
        progress = 1;
    }
    return progress;
}

int mailbox_poll(void)
{
    int progress = poll_one(&generic_process);
#if PTL_ACCEL
    /* Its commands wait until the kernel's PTL_CMD_ACCEL_INIT (always posted first). */
    if (accel_process.initialized)
        progress |= poll_one(&accel_process);
#endif
    return progress;
}
