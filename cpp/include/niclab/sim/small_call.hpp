#pragma once
// A callable of at most 16 bytes that is trivially copyable (a lambda capturing `this`
// and an index or two), kept whole in 24 bytes: its bytes and the call. A kernel lane
// stores it in the event's own entry (sim::Kernel lanes), so an event of a packet train
// is written once where it waits and called from there: held as a Callback in the
// event's slot, it was built, moved in and moved out again, a fifth of the kernel's
// work per event of a bulk transfer.
#include <cstddef>
#include <memory>
#include <type_traits>

#include "niclab/sim/capture_bytes.hpp"

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
        store_capture<sizeof(Fn), kCapacity>(bytes_, reinterpret_cast<const unsigned char*>(std::addressof(f)));  // capture_bytes.hpp
        call_ = [](const void* p) { (*static_cast<const Fn*>(p))(); };
    }
    void operator()() const { call_(bytes_); }
    explicit operator bool() const { return call_ != nullptr; }
    void clear() { call_ = nullptr; }

private:
    alignas(8) unsigned char bytes_[kCapacity];
    void (*call_)(const void*) = nullptr;
};

}  // namespace niclab::sim
