/*
 * double_fault: installs a trap handler address that points at an unopened host
 * window (nothing the core can fetch from), then executes an illegal instruction.
 * The trap vectors to the handler, whose fetch fails: a double fault the simulator
 * must report instead of looping on the trap forever.
 */
#include "niclab/fw/runtime.h"

#define UNFETCHABLE_HANDLER NICLAB_HOST_WINDOW_ADDR(14u)

__attribute__((noinline)) void trap_into_nowhere(void)
{
    __asm__ volatile(".word 0x00000000");   /* all zeros is defined to be illegal */
}

int main(void)
{
    fw_set_running();
    fw_csr_write(mtvec, UNFETCHABLE_HANDLER);
    trap_into_nowhere();
    fw_halt(0);                 /* not reached */
}
