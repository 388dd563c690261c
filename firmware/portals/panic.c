/* Panic with a reason that carries its numbers (seed 000 §4.3.3). */
#include "niclab/fw/runtime.h"
#include "panic.h"

/* In uncached SRAM: the NIC reads the reason straight from SRAM, and a cached copy
 * could still sit in the data cache. */
FW_UNCACHED static char reason[96];

static char *put_str(char *p, const char *s)
{
    while (*s && p < reason + sizeof reason - 1)
        *p++ = *s++;
    return p;
}

static char *put_dec(char *p, uint32_t v)
{
    char digits[10];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n && p < reason + sizeof reason - 1)
        *p++ = digits[--n];
    return p;
}

const char *reason_pool(const char *pool, uint32_t used, uint32_t total)
{
    char *p = put_str(reason, pool);
    p = put_str(p, " pool exhausted: ");
    p = put_dec(p, used);
    p = put_str(p, " of ");
    p = put_dec(p, total);
    p = put_str(p, " in use");
    *p = 0;
    return reason;
}

const char *reason_value(const char *what, uint32_t value)
{
    char *p = put_str(reason, what);
    p = put_str(p, " ");
    p = put_dec(p, value);
    *p = 0;
    return reason;
}
