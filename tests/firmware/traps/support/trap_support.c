/* Trap handler and reporting for the trap tests (see trap_support.h). */
#include "trap_support.h"

extern char trap_entry[];
volatile struct trap_record trap_last;

void trap_install(void) { fw_csr_write(mtvec, (uintptr_t)trap_entry); }

/* Called by trap_entry.S; returns where to resume. */
uint32_t trap_handler(struct trap_frame *frame, uint32_t cause, uint32_t epc, uint32_t tval);
uint32_t trap_handler(struct trap_frame *frame, uint32_t cause, uint32_t epc, uint32_t tval)
{
    trap_last.count++;
    trap_last.cause = cause;
    trap_last.epc = epc;
    trap_last.tval = tval;
    trap_last.mstatus = fw_csr_read(mstatus);
    if (cause & FW_MCAUSE_INTERRUPT) {
        if (cause == FW_IRQ_TIMER)
            fw_timer_off();             /* lower mip.MTIP, or we would trap again at once */
        return epc;                     /* epc is the instruction not yet executed */
    }
    if (cause == FW_CAUSE_INSN_ACCESS)
        return frame->x[1];             /* the jump's link register: back to the caller */
    return epc + 4;                     /* skip the trapping instruction (no C extension) */
}

void print_kv_hex(const char *key, uint32_t v)
{
    fw_console_putc(' ');
    fw_console_puts(key);
    fw_console_putc('=');
    fw_console_put_hex32(v);
}

void print_kv_dec(const char *key, uint32_t v)
{
    fw_console_putc(' ');
    fw_console_puts(key);
    fw_console_putc('=');
    fw_console_put_dec(v);
}

void trap_report(const char *what, uint32_t expected_epc)
{
    fw_console_puts("trap ");
    fw_console_puts(what);
    fw_console_putc(':');
    print_kv_hex("cause", trap_last.cause);
    if (trap_last.epc == expected_epc)
        fw_console_puts(" epc=ok");
    else
        print_kv_hex("epc", trap_last.epc);
}

void trap_mtval_hex(void)
{
    print_kv_hex("mtval", trap_last.tval);
    fw_console_putc('\n');
}

void trap_mtval_rel(uint32_t base, const char *base_name)
{
    fw_console_puts(" mtval=");
    fw_console_puts(base_name);
    fw_console_putc('+');
    fw_console_put_hex32(trap_last.tval - base);
    fw_console_putc('\n');
}
