/*
 * crc32: a compute-bound firmware for the instructions-per-second benchmark.
 * CRC-32 (reflected polynomial 0xEDB88320, as in Ethernet and zlib), table-driven,
 * over a 4 KB buffer in cached SRAM, `iterations` times. The host may poke
 * `iterations` (an ordinary .data word, found by symbol) before releasing the core.
 * Built twice: crc32 with I and D caches on, crc32_nocache (-DCRC32_NO_CACHE) with
 * both off, so the benchmark shows the caches' effect on the same instructions.
 * Exit code 0 if the self-check CRC("123456789") == 0xCBF43926, else 1.
 */
#include "niclab/fw/runtime.h"

#define BUFFER_BYTES 4096u

volatile uint32_t iterations = 1000;

static uint32_t table[256];
static uint8_t buffer[BUFFER_BYTES];

static void crc32_init_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        table[i] = c;
    }
}

static uint32_t crc32(const uint8_t *p, uint32_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    while (n--)
        c = table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

int main(void)
{
#ifndef CRC32_NO_CACHE
    fw_cache_enable(NICLAB_CACHE_I | NICLAB_CACHE_D);
#endif
    fw_set_running();
    crc32_init_table();

    static const char check[] = "123456789";
    uint32_t self_check = crc32((const uint8_t *)check, sizeof check - 1);

    /* A fixed pseudo-random fill (LCG), so every run hashes the same bytes. */
    uint32_t x = 1;
    for (uint32_t i = 0; i < BUFFER_BYTES; i++) {
        x = x * 1664525u + 1013904223u;
        buffer[i] = (uint8_t)(x >> 24);
    }

    uint32_t n = iterations, crc = 0;
    for (uint32_t i = 0; i < n; i++) {
        buffer[0] = (uint8_t)i;     /* a different input each round: no loop hoisting */
        crc ^= crc32(buffer, BUFFER_BYTES);
    }

    fw_console_puts("crc32 self-check: ");
    fw_console_put_hex32(self_check);
    fw_console_puts("\ncrc32 x");
    fw_console_put_dec(n);
    fw_console_puts(" of 4096 bytes: ");
    fw_console_put_hex32(crc);
    fw_console_puts("\n");
    fw_halt(self_check == 0xCBF43926u ? 0 : 1);
}
