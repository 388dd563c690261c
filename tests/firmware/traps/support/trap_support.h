/*
 * Support for the trap tests (niclab only): a trap handler that records what the
 * core reported and resumes after the trapping instruction, and printing helpers
 * whose output does not depend on link addresses, so the .expected files can be
 * written by hand.
 */
#ifndef TRAP_SUPPORT_H
#define TRAP_SUPPORT_H

#include "niclab/fw/runtime.h"

struct trap_frame { uint32_t x[32]; };     /* layout of trap_entry.S */

struct trap_record {
    uint32_t count;                         /* traps taken so far */
    uint32_t cause, epc, tval;              /* of the last one */
    uint32_t mstatus;                       /* as seen inside the handler */
};
extern volatile struct trap_record trap_last;

void trap_install(void);                    /* mtvec = trap_entry (direct mode) */

/* Marks the next instruction with a global label, so C can compare mepc with it. */
#define TRAP_SITE(label) ".globl " #label "\n" #label ":\n\t"

/* Reporting the last trap as one line:
 *   trap_report("x", epc)   "trap x: cause=0x... epc=ok"  (epc's value if it differs)
 * then one of
 *   trap_mtval_hex()        " mtval=0x...\n"
 *   trap_mtval_rel(b, "n")  " mtval=n+0x...\n"  (mtval - b: independent of the link) */
void trap_report(const char *what, uint32_t expected_epc);
void trap_mtval_hex(void);
void trap_mtval_rel(uint32_t base, const char *base_name);
void print_kv_hex(const char *key, uint32_t v);     /* " key=0x%08x" */
void print_kv_dec(const char *key, uint32_t v);     /* " key=%u" */

#endif /* TRAP_SUPPORT_H */
