/*
 * timer_irq: interrupts the way NIC firmware uses them. A machine-mode trap
 * handler (gcc's interrupt attribute saves and restores every register it uses and
 * returns with mret) re-arms the timer every TICK_CYCLES; between ticks the core
 * sleeps in wfi, so the simulator skips ahead instead of spinning.
 */
#include "niclab/fw/runtime.h"

#define TICK_CYCLES 1000u
#define TICKS 10u

static volatile uint32_t ticks;
static uint64_t next_deadline;

/* mtvec requires a 4-byte aligned handler (direct mode: low bits 00). */
static void __attribute__((interrupt("machine"), aligned(4))) trap_handler(void)
{
    if (fw_csr_read(mcause) == FW_IRQ_TIMER) {
        ticks++;
        /* Relative to the last deadline, not to now: ticks do not drift. */
        next_deadline += TICK_CYCLES;
        if (ticks < TICKS)
            fw_set_timer_at(next_deadline);
        else
            fw_timer_off();
        return;
    }
    fw_console_puts("unexpected trap, mcause=");
    fw_console_put_hex32(fw_csr_read(mcause));
    fw_console_puts("\n");
    fw_halt(2);
}

int main(void)
{
    fw_cache_enable(NICLAB_CACHE_I | NICLAB_CACHE_D);
    fw_set_running();

    fw_csr_write(mtvec, (uintptr_t)trap_handler);
    next_deadline = fw_mtime() + TICK_CYCLES;
    fw_set_timer_at(next_deadline);
    fw_csr_set(mie, FW_MIE_MTIE);

    /* Check-then-sleep with interrupts masked: if the last tick came between the
     * check and the wfi we would sleep forever. wfi wakes on a pending enabled
     * interrupt even while mstatus.MIE is 0; unmasking then takes it. */
    for (;;) {
        fw_csr_clear(mstatus, FW_MSTATUS_MIE);
        if (ticks >= TICKS)
            break;
        fw_wfi();
        fw_csr_set(mstatus, FW_MSTATUS_MIE);
    }

    fw_console_puts("timer_irq: ");
    fw_console_put_dec(ticks);
    fw_console_puts(" ticks of ");
    fw_console_put_dec(TICK_CYCLES);
    fw_console_puts(" cycles\n");
    fw_halt(0);
}
