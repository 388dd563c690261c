/*
 * Debug console: each byte written to NICLAB_CTRL_CONSOLE is appended to the
 * NIC's console stream, which the host shows (niclab-run prints it to stdout).
 */
#include "niclab/fw/runtime.h"

void fw_console_putc(char c) { fw_ctrl_write(NICLAB_CTRL_CONSOLE, (unsigned char)c); }

void fw_console_puts(const char *s)
{
    while (*s)
        fw_console_putc(*s++);
}

void fw_console_put_hex32(uint32_t v)
{
    static const char digits[] = "0123456789abcdef";
    fw_console_puts("0x");
    for (int shift = 28; shift >= 0; shift -= 4)
        fw_console_putc(digits[(v >> shift) & 0xF]);
}

void fw_console_put_dec64(uint64_t v)
{
    char buf[20];   /* 2^64 - 1 has 20 digits */
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        fw_console_putc(buf[--n]);
}

/* A separate 32-bit version: the 64-bit one calls libgcc's __udivdi3. */
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
