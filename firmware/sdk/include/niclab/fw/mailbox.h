/*
 * Host <-> firmware mailboxes (seed 000 §4.1): one per firmware-level process, in
 * uncached SRAM, each a command FIFO the host fills and a result FIFO the firmware
 * fills, managed by head/tail indices (producer advances the tail, consumer the head;
 * full when advancing the tail would meet the head). The host finds a firmware's
 * mailbox through the ELF symbol NICLAB_MAILBOX_SYMBOL and rings the doorbell
 * (NICLAB_CTRL_EXT_IRQ_RAISE with NICLAB_IRQ_DOORBELL) after posting a command, so a
 * firmware sleeping in wfi wakes up. Shared by the firmware and the C++ host driver.
 */
#ifndef NICLAB_FW_MAILBOX_H
#define NICLAB_FW_MAILBOX_H

#include <stdint.h>

#define NICLAB_MAILBOX_SYMBOL   "niclab_mailbox"
#define NICLAB_MAILBOX_MAGIC    0x4D424F58u  /* "MBOX" */
#define NICLAB_MAILBOX_ENTRIES  16u
#define NICLAB_MAILBOX_WORDS    8u           /* words per command and per result */

struct niclab_mailbox {
    uint32_t magic;
    uint32_t entries;
    volatile uint32_t cmd_head;  /* firmware: next command to take */
    volatile uint32_t cmd_tail;  /* host: next free command slot */
    volatile uint32_t res_head;  /* host: next result to take */
    volatile uint32_t res_tail;  /* firmware: next free result slot */
    uint32_t reserved[2];
    volatile uint32_t cmd[NICLAB_MAILBOX_ENTRIES][NICLAB_MAILBOX_WORDS];
    volatile uint32_t res[NICLAB_MAILBOX_ENTRIES][NICLAB_MAILBOX_WORDS];
};

/* Byte offsets inside struct niclab_mailbox, for the C++ side. */
#define NICLAB_MAILBOX_CMD_HEAD  8u
#define NICLAB_MAILBOX_CMD_TAIL  12u
#define NICLAB_MAILBOX_RES_HEAD  16u
#define NICLAB_MAILBOX_RES_TAIL  20u
#define NICLAB_MAILBOX_CMD       32u
#define NICLAB_MAILBOX_RES       (NICLAB_MAILBOX_CMD + NICLAB_MAILBOX_ENTRIES * NICLAB_MAILBOX_WORDS * 4u)
#define NICLAB_MAILBOX_BYTES     (NICLAB_MAILBOX_RES + NICLAB_MAILBOX_ENTRIES * NICLAB_MAILBOX_WORDS * 4u)

#endif /* NICLAB_FW_MAILBOX_H */
