/*
 * Machine timer interrupt: mtimecmp in the control block raises mip.MTIP when
 * mtime >= mtimecmp; with mie.MTIE and mstatus.MIE set the core traps with
 * mcause = 0x80000007. Checks: the interrupt is not taken while either enable is
 * clear, the handler runs with MIE = 0 and MPIE = 1, mret restores MIE, and mepc
 * is an instruction boundary the program resumes at. Expected output:
 * timer_interrupt.expected.
 */
#include "trap_support.h"

#define DELAY_CYCLES 500u

/* Spin (no wfi) until mip.MTIP is set, i.e. the deadline has passed. */
static void wait_pending(void)
{
    while (!(fw_csr_read(mip) & FW_MIP_MTIP))
        ;
}

int main(void)
{
    fw_set_running();
    trap_install();

    /* MIE = 1 but MTIE = 0: pending, not taken. */
    fw_csr_set(mstatus, FW_MSTATUS_MIE);
    fw_set_timer(DELAY_CYCLES);
    wait_pending();
    fw_console_puts("mtie=0:");
    print_kv_dec("mtip", (fw_csr_read(mip) & FW_MIP_MTIP) != 0);
    print_kv_dec("traps", trap_last.count);
    fw_console_puts("\n");

    /* MTIE = 1 but MIE = 0: still not taken. */
    fw_csr_clear(mstatus, FW_MSTATUS_MIE);
    fw_csr_set(mie, FW_MIE_MTIE);
    fw_console_puts("mie=0:");
    print_kv_dec("traps", trap_last.count);
    fw_console_puts("\n");

    /* Both set: taken at once; the handler turns the timer off. */
    fw_csr_set(mstatus, FW_MSTATUS_MIE);
    __asm__ volatile("nop" ::: "memory");    /* the interrupt lands at or before here */
    fw_console_puts("enabled:");
    print_kv_dec("traps", trap_last.count);
    print_kv_hex("cause", trap_last.cause);
    print_kv_dec("handler_mie", (trap_last.mstatus & FW_MSTATUS_MIE) != 0);
    print_kv_dec("handler_mpie", (trap_last.mstatus & FW_MSTATUS_MPIE) != 0);
    print_kv_dec("mie_after_mret", (fw_csr_read(mstatus) & FW_MSTATUS_MIE) != 0);
    print_kv_dec("mtip", (fw_csr_read(mip) & FW_MIP_MTIP) != 0);
    fw_console_puts("\n");

    /* Three more ticks, sleeping in wfi between them (masked check, then sleep). */
    for (uint32_t want = trap_last.count + 3; trap_last.count < want;) {
        fw_set_timer(DELAY_CYCLES);
        fw_csr_clear(mstatus, FW_MSTATUS_MIE);
        uint32_t seen = trap_last.count;
        while (trap_last.count == seen && !(fw_csr_read(mip) & FW_MIP_MTIP))
            fw_wfi();
        fw_csr_set(mstatus, FW_MSTATUS_MIE);
    }
    fw_csr_clear(mstatus, FW_MSTATUS_MIE);
    fw_console_puts("ticks:");
    print_kv_dec("traps", trap_last.count);
    print_kv_hex("cause", trap_last.cause);
    fw_console_puts("\ndone\n");
    fw_halt(0);
}
