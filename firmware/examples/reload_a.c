/*
 * reload_a / reload_b: two firmwares that differ only in the version they
 * announce, for testing that a reload really replaces the running image: each
 * prints its version string and stores its value in fw_version (uncached, so the
 * host reads it by symbol), then sleeps.
 */
#include "niclab/fw/runtime.h"

#ifndef RELOAD_VERSION
#define RELOAD_VERSION 0xAu
#define RELOAD_NAME "reload_a version A"
#endif

FW_UNCACHED volatile uint32_t fw_version;

int main(void)
{
    fw_version = RELOAD_VERSION;
    fw_set_running();
    fw_console_puts(RELOAD_NAME "\n");
    for (;;)
        fw_wfi();
}
