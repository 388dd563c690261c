/*
 * fault_load: starts, then loads from host window 14 (0xE0000000), which the host
 * driver never opened: a load access fault the simulator must report, naming the
 * address and the PC, without touching host memory.
 */
#include "niclab/fw/runtime.h"

#define UNOPENED_HOST_ADDR NICLAB_HOST_WINDOW_ADDR(14u)

__attribute__((noinline)) uint32_t read_unopened_window(void)
{
    return *(volatile uint32_t *)(uintptr_t)UNOPENED_HOST_ADDR;
}

int main(void)
{
    fw_set_running();
    uint32_t v = read_unopened_window();
    fw_console_put_hex32(v);    /* not reached */
    fw_halt(0);
}
