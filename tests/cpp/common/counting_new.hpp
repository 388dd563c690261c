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

// Not inlined: GCC would otherwise see free() of a pointer from operator new at the
// inlined call sites and warn of a mismatched pair (-Wmismatched-new-delete).
[[gnu::noinline]] void* operator new(std::size_t n) {
    if (g_counting) ++g_allocations;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
