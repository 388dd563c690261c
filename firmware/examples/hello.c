/*
 * hello: the smallest complete niclab firmware, and what `make demo` runs.
 * It does what every firmware must do at boot (turn on the caches, tell the loader
 * it is running), prints who it is, computes a little, and reports how many cycles
 * and instructions that took, read from the core's own counters.
 */
#include "niclab/fw/runtime.h"

/* noinline keeps the loop a real loop that the counters can be read around. */
static __attribute__((noinline)) uint32_t fibonacci(uint32_t n)
{
    uint32_t a = 0, b = 1;
    while (n--) {
        uint32_t next = a + b;
        a = b;
        b = next;
    }
    return a;
}

int main(void)
{
    /* Caches are off out of reset; the seed's firmware ran with both on. */
    fw_cache_enable(NICLAB_CACHE_I | NICLAB_CACHE_D);
    /* The loader waits for this flag before it considers the NIC up (seed 000 §3.2). */
    fw_set_running();

    fw_console_puts("hello from niclab node ");
    fw_console_put_dec(fw_node_id());
    fw_console_puts(" at ");
    fw_console_put_dec(fw_clock_mhz());
    fw_console_puts(" MHz\n");

    uint64_t cycles0 = fw_mcycle();
    uint64_t instret0 = fw_minstret();
    uint32_t sum = 0;
    fw_console_puts("fib:");
    for (uint32_t i = 0; i < 10; i++) {
        uint32_t f = fibonacci(i);
        sum += f;
        fw_console_putc(' ');
        fw_console_put_dec(f);
    }
    fw_console_puts("\nsum: ");
    fw_console_put_dec(sum);
    uint64_t cycles = fw_mcycle() - cycles0;
    uint64_t instret = fw_minstret() - instret0;

    fw_console_puts("\nmcycle: ");
    fw_console_put_dec64(cycles);
    fw_console_puts(" minstret: ");
    fw_console_put_dec64(instret);
    fw_console_puts("\n");

    fw_halt(sum == 88 ? 0 : 1);   /* 0+1+1+2+3+5+8+13+21+34 */
}
