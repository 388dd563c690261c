#pragma once
// How an event's callable is copied into a callback's storage (InplaceFunction, SmallCall).
//
// A lambda's captures were just stored one by one, each by its own width, and a wider
// load spanning several of them waits for them all to reach the cache instead of taking
// them from the store buffer. Copying the lambda as the compiler does, 16 bytes at a time,
// cost that stall at every event scheduled (two thirds of net::Network::send's time in a
// bulk transfer), and moving it on read it back again. So the bytes are read 4 at a time
// (the width of an index; a pointer or a time forwards to two such loads), each kept apart
// in a register so they are not merged into a wide load, and stored 16 at a time, which a
// later 16-byte load then takes straight over. (A lambda's padding is read along,
// harmlessly: nothing reads it back but a copy.)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace niclab::sim {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
// The N bytes at src into the Capacity bytes (a multiple of 8) at dst, the rest zero.
template <std::size_t N, std::size_t Capacity>
[[gnu::always_inline]] inline void store_capture(unsigned char* dst, const unsigned char* src) {
    static_assert(N <= Capacity && Capacity % 8 == 0);
#if defined(__SSE2__)
    auto word = [src](std::size_t i) -> int {
        if (i * 4 >= N) return 0;
        uint32_t w = 0;
        std::memcpy(&w, src + i * 4, std::min<std::size_t>(4, N - i * 4));
        asm("" : "+r"(w));  // kept a 4-byte load
        return int(w);
    };
    constexpr std::size_t kFull = Capacity / 16;
    for (std::size_t v = 0; v < kFull; ++v)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + v * 16),
                         _mm_setr_epi32(word(v * 4), word(v * 4 + 1), word(v * 4 + 2), word(v * 4 + 3)));
    if constexpr (Capacity % 16 == 8)  // the last 8 (a Kernel slot's callback is 40 bytes)
        _mm_storel_epi64(reinterpret_cast<__m128i*>(dst + kFull * 16), _mm_setr_epi32(word(kFull * 4), word(kFull * 4 + 1), 0, 0));
#else
    std::memcpy(dst, src, N);
    std::memset(dst + N, 0, Capacity - N);
#endif
}
#pragma GCC diagnostic pop

}  // namespace niclab::sim
