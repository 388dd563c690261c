/*
 * fault_panic: starts, then gives up with fw_panic, as the Portals firmware does on
 * resource exhaustion (seed 000 §4.3.3). The host must see a FirmwareFault naming
 * the reason and the line that called fw_panic.
 */
#include "niclab/fw/runtime.h"

__attribute__((noinline)) void allocate_widget(void)
{
    fw_panic("widget pool exhausted (4 of 4 in use)");
}

int main(void)
{
    fw_set_running();
    allocate_widget();
}
