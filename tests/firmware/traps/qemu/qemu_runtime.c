/*
 * The runtime functions the trap tests use, for QEMU's virt board instead of the
 * NIC: console on the 16550 UART, halt through the sifive_test device, mtime and
 * mtimecmp in the CLINT. Only for cross-checking the hand-written .expected files
 * against an independent implementation of the privileged spec; the tests
 * themselves are niclab programs.
 */
#include "niclab/fw/runtime.h"

#define UART_THR        ((volatile uint8_t *)0x10000000u)
#define TEST_DEV        ((volatile uint32_t *)0x00100000u)
#define CLINT_MTIMECMP  ((volatile uint32_t *)0x02004000u)
#define CLINT_MTIME     ((volatile uint32_t *)0x0200bff8u)

void fw_set_running(void) {}
void fw_cache_enable(unsigned mask) { (void)mask; }

void fw_halt(uint32_t code)
{
    *TEST_DEV = code ? (code << 16) | 0x3333u : 0x5555u;
    for (;;)
        fw_wfi();
}

uint64_t fw_mtime(void)
{
    uint32_t hi, lo;
    do {
        hi = CLINT_MTIME[1];
        lo = CLINT_MTIME[0];
    } while (hi != CLINT_MTIME[1]);
    return ((uint64_t)hi << 32) | lo;
}

void fw_set_timer_at(uint64_t when)
{
    CLINT_MTIMECMP[1] = 0xFFFFFFFFu;
    CLINT_MTIMECMP[0] = (uint32_t)when;
    CLINT_MTIMECMP[1] = (uint32_t)(when >> 32);
}

void fw_set_timer(uint32_t cycles) { fw_set_timer_at(fw_mtime() + cycles); }
void fw_timer_off(void) { fw_set_timer_at(UINT64_MAX); }

void fw_console_putc(char c) { *UART_THR = (uint8_t)c; }

void fw_console_puts(const char *s)
{
    while (*s)
        fw_console_putc(*s++);
}

void fw_console_put_hex32(uint32_t v)
{
    fw_console_puts("0x");
    for (int shift = 28; shift >= 0; shift -= 4)
        fw_console_putc("0123456789abcdef"[(v >> shift) & 0xF]);
}

void fw_console_put_dec(uint32_t v)
{
    char buf[10];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        fw_console_putc(buf[--n]);
}
