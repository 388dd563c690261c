/*
 * The C library functions gcc emits calls to even in freestanding code (struct
 * copies, zero-initialised locals), plus strlen. Word-at-a-time when both pointers
 * allow it, since firmware copies packet headers and descriptors all the time.
 * Built with -fno-tree-loop-distribute-patterns, or gcc would turn these loops back
 * into calls to themselves.
 */
#include "niclab/fw/runtime.h"

#define WORD_ALIGNED(p) (((uintptr_t)(p) & 3u) == 0)

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (WORD_ALIGNED(d) && WORD_ALIGNED(s)) {
        for (; n >= 4; n -= 4, d += 4, s += 4)
            *(uint32_t *)d = *(const uint32_t *)s;
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d <= s || d >= s + n)
        return memcpy(dst, src, n);   /* forward copy is safe */
    while (n--)                       /* overlapping with dst above src: copy backwards */
        d[n] = s[n];
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    if (WORD_ALIGNED(d)) {
        uint32_t w = (unsigned char)c * 0x01010101u;
        for (; n >= 4; n -= 4, d += 4)
            *(uint32_t *)d = w;
    }
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++) {
        if (*x != *y)
            return *x - *y;
    }
    return 0;
}

size_t strlen(const char *s)
{
    const char *p = s;
    while (*p)
        p++;
    return (size_t)(p - s);
}
