#pragma once
// A callable of at most 16 bytes that is trivially copyable (a lambda capturing `this`
// and an index or two), kept whole in 24 bytes: its bytes and the call. A kernel lane
// stores it in the event's own entry (sim::Kernel lanes), so an event of a packet train
// is written once where it waits and called from there: held as a Callback in the
// event's slot, it was built, moved in and moved out again, a fifth of the kernel's
// work per event of a bulk transfer.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace niclab::sim {

class SmallCall {
public:
    static constexpr std::size_t kCapacity = 16;
    template <typename F>
    static constexpr bool fits = std::is_trivially_copyable_v<std::decay_t<F>> &&
                                 std::is_trivially_destructible_v<std::decay_t<F>> && sizeof(std::decay_t<F>) <= kCapacity &&
                                 alignof(std::decay_t<F>) <= 8;

    SmallCall() = default;
    template <typename F, typename = std::enable_if_t<fits<F> && !std::is_same_v<std::decay_t<F>, SmallCall>>>
    [[gnu::always_inline]] explicit SmallCall(const F& f) {
        using Fn = std::decay_t<F>;
        store(reinterpret_cast<const unsigned char*>(std::addressof(f)), sizeof(Fn));
        call_ = [](const void* p) { (*static_cast<const Fn*>(p))(); };
    }
    void operator()() const { call_(bytes_); }
    explicit operator bool() const { return call_ != nullptr; }
    void clear() { call_ = nullptr; }

private:
    // As InplaceFunction::store_words: the captures were just stored one by one, so
    // they are read 4 bytes at a time (a wider load would wait for them all to reach the
    // cache) and stored 16 at a time.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
    [[gnu::always_inline]] void store(const unsigned char* src, std::size_t n) {
#if defined(__SSE2__)
        auto word = [src, n](std::size_t i) -> int {
            if (i * 4 >= n) return 0;
            uint32_t w = 0;
            std::memcpy(&w, src + i * 4, n - i * 4 < 4 ? n - i * 4 : 4);
            asm("" : "+r"(w));  // kept a 4-byte load
            return int(w);
        };
        _mm_storeu_si128(reinterpret_cast<__m128i*>(bytes_), _mm_setr_epi32(word(0), word(1), word(2), word(3)));
#else
        std::memcpy(bytes_, src, n);
        std::memset(bytes_ + n, 0, kCapacity - n);
#endif
    }
#pragma GCC diagnostic pop

    alignas(8) unsigned char bytes_[kCapacity];
    void (*call_)(const void*) = nullptr;
};

}  // namespace niclab::sim
