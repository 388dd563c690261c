/*
 * Firmware-level processes (seed 000 §4.1-4.2). Each has a process structure in
 * cached SRAM, used only by the firmware, and a mailbox in uncached SRAM shared with
 * the host; the two are one-to-one. The generic process (the kernel's Portals,
 * interrupt driven) takes every Portals pid but one: with PTL_ACCEL, the accelerated
 * process (a user process whose library posts to its own mailbox, accel.h) takes the
 * pid the kernel named in PTL_CMD_ACCEL_INIT. N = PTL_PROCESSES in the SRAM formula.
 */
#ifndef PTL_PROCESS_H
#define PTL_PROCESS_H

#include <stdint.h>

#include "niclab/fw/mailbox.h"
#include "config.h"
#include "fifo.h"
#include "globals.h"

struct lower_pending;

struct process {
    volatile struct niclab_mailbox *mailbox; /* its uncached twin */
    struct lower_pending *pendings;          /* lower pendings by id: TX pool, then RX pool */
    struct lower_pending *rx_free;           /* RX pending free list (firmware-managed pool) */
    uint32_t rx_fresh;                       /* RX ids never used yet: the free list grows lazily */
    uint32_t rx_in_use;
    /* From PTL_CMD_INIT: */
    uint32_t upper_phys_lo, upper_phys_hi;   /* upper pending 0, for the TX DMA engine */
    uint32_t upper_window;                   /* the same through host window 0, for the core */
    uint32_t eq_window;                      /* event queue slot 0 through the window */
    uint32_t eq_mask;                        /* entries - 1 */
    uint32_t eq_tail;                        /* next slot to write */
    uint8_t initialized;
    uint8_t posted;                          /* events posted this main-loop iteration */
    uint16_t pid;                            /* accelerated: the pid it takes */
    uint16_t uid;                            /* accelerated: its uid (get replies carry it) */
    uint16_t pad;
    struct fifo_shadow cmd;                  /* mailbox command FIFO: we consume */
    struct fifo_shadow res;                  /* mailbox result FIFO: we produce */
};

extern struct process generic_process;
extern volatile struct niclab_mailbox niclab_mailbox;
#if PTL_ACCEL
extern struct process accel_process;
extern volatile struct niclab_mailbox ptl_accel_mailbox;
#endif

void process_boot(void);
/* PTL_CMD_INIT / PTL_CMD_ACCEL_INIT: where `p`'s host structures are (upper pendings,
 * EQ through a host window). The EQ must hold an event for every pending at once, so
 * it can never overflow (portals_fw.h): 0, and nothing set, if it cannot. */
int process_init_host(struct process *p, volatile const uint32_t *cmd);
/* The firmware-level process for a Portals pid (seed 000 §4.3.2): the accelerated
 * process's pid once the kernel set it up, the generic process otherwise. Sets
 * `process`. */
static inline void process_for_pid(uint32_t pid)
{
#if PTL_ACCEL
    if (accel_process.initialized && pid == accel_process.pid) {
        process = &accel_process;
        return;
    }
#else
    (void)pid;
#endif
    process = &generic_process;
}


#endif /* PTL_PROCESS_H */
