/*
 * wfi wakes on a pending *enabled* interrupt even when mstatus.MIE = 0, and then
 * no trap is taken: execution simply continues after the wfi (privileged spec,
 * "Wait for Interrupt"). This is how firmware sleeps without a race between
 * checking for work and going to sleep. The simulator must skip ahead to the
 * timer deadline, not return from wfi at once: mip.MTIP must be set on wake-up.
 * Expected output: wfi_wake.expected.
 */
#include "trap_support.h"

#define DELAY_CYCLES 2000u

int main(void)
{
    fw_set_running();
    trap_install();

    fw_csr_clear(mstatus, FW_MSTATUS_MIE);
    fw_csr_set(mie, FW_MIE_MTIE);
    uint64_t deadline = fw_mtime() + DELAY_CYCLES;
    fw_set_timer_at(deadline);
    fw_wfi();
    uint32_t mip = fw_csr_read(mip);
    fw_console_puts("wfi woke:");
    print_kv_dec("mtip", (mip & FW_MIP_MTIP) != 0);
    print_kv_dec("past_deadline", fw_mtime() >= deadline);
    print_kv_dec("traps", trap_last.count);
    fw_console_puts("\n");

    /* Unmasking now takes the pending interrupt. */
    fw_csr_set(mstatus, FW_MSTATUS_MIE);
    __asm__ volatile("nop" ::: "memory");
    fw_csr_clear(mstatus, FW_MSTATUS_MIE);
    fw_console_puts("after mie=1:");
    print_kv_dec("traps", trap_last.count);
    print_kv_hex("cause", trap_last.cause);
    fw_console_puts("\ndone\n");
    fw_halt(0);
}
