/*
 * host_copy: reaches host memory only through host-bridge window 0, as the host
 * driver opened it: copies 64 bytes from window offset 0 to window offset 0x100,
 * then halts with exit code 0. Tests open the window (or not, or read-only, or too
 * short) before loading, and check what lands in host memory.
 */
#include "niclab/fw/runtime.h"

#define COPY_BYTES 64u
#define DEST_OFFSET 0x100u

/* Window 0 starts at core address 0. Read through a volatile variable so the
 * compiler cannot see a null pointer (and turn the access into a trap). */
static volatile uintptr_t window_base = NICLAB_HOST_WINDOW_ADDR(0u);

__attribute__((noinline)) void copy_through_window(void)
{
    volatile uint32_t *src = (volatile uint32_t *)window_base;
    volatile uint32_t *dst = (volatile uint32_t *)(window_base + DEST_OFFSET);
    for (uint32_t i = 0; i < COPY_BYTES / 4; i++)
        dst[i] = src[i];
}

int main(void)
{
    fw_cache_enable(NICLAB_CACHE_I | NICLAB_CACHE_D);
    fw_set_running();
    copy_through_window();
    fw_console_puts("host_copy: copied 64 bytes\n");
    fw_halt(0);
}
