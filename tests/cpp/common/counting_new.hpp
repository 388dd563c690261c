#pragma once
// Replaces the global operator new with one that counts allocations made while
// g_counting is set. Include it from exactly one source file of a test binary that
// checks that a hot path allocates nothing.
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {
bool g_counting = false;
std::size_t g_allocations = 0;
}  // namespace

void* operator new(std::size_t n) {
    if (g_counting) ++g_allocations;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
