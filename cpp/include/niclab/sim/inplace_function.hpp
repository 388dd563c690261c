#pragma once
// A move-only callable stored inline (no heap), so scheduling an event never
// allocates. Captures larger than Capacity are a compile error, not a slow path.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "niclab/sim/capture_bytes.hpp"

namespace niclab {

template <std::size_t Capacity = 48>
class InplaceFunction {
public:
    InplaceFunction() = default;

    // Always inline: built once per event scheduled, and a call for it cost more than
    // storing the few words of a capture.
    template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, InplaceFunction>>>
    [[gnu::always_inline]] InplaceFunction(F&& f) {  // NOLINT: implicit by design, like std::function
        using Fn = std::decay_t<F>;
        static_assert(sizeof(Fn) <= Capacity, "event capture too large for InplaceFunction");
        static_assert(alignof(Fn) <= alignof(std::max_align_t));
        if constexpr (kTrivial<Fn>) {
            // Copied whole when moved (see Manage): the bytes past the callable are set too.
            sim::store_capture<sizeof(Fn), Capacity>(storage_, reinterpret_cast<const unsigned char*>(std::addressof(f)));
        } else {
            ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
        }
        call_ = [](void* p) { (*static_cast<Fn*>(p))(); };
        if constexpr (!kTrivial<Fn>) manage_ = &manage_for<Fn>;
    }

    InplaceFunction(InplaceFunction&& o) noexcept { move_from(o); }
    InplaceFunction& operator=(InplaceFunction&& o) noexcept {
        if (this != &o) { reset(); move_from(o); }
        return *this;
    }
    InplaceFunction(const InplaceFunction&) = delete;
    InplaceFunction& operator=(const InplaceFunction&) = delete;
    ~InplaceFunction() { reset(); }

    void operator()() { call_(storage_); }
    explicit operator bool() const { return call_ != nullptr; }
    void reset() {
        if (manage_) manage_->destroy(storage_);
        call_ = nullptr;
        manage_ = nullptr;
    }

private:
    // A trivially copyable callable (a lambda capturing `this` and a few numbers, as
    // nearly every event's does) has no Manage: its bytes are copied and nothing is
    // called. An event's callback is moved twice and destroyed once, and those three
    // indirect calls were a tenth of the kernel's work per event. The call pointer sits
    // in the object itself, beside the bytes: reaching it, or the move, through a table
    // was a chain of two dependent loads at every event a lane fires (a fifth of
    // Kernel::fire_lane's time in a bulk transfer).
    struct Manage {
        void (*move)(void* dst, void* src);
        void (*destroy)(void*);
    };
    template <typename Fn>
    static constexpr bool kTrivial = std::is_trivially_copyable_v<Fn> && std::is_trivially_destructible_v<Fn>;
    template <typename Fn>
    static constexpr Manage manage_for{
        +[](void* d, void* s) { ::new (d) Fn(std::move(*static_cast<Fn*>(s))); static_cast<Fn*>(s)->~Fn(); },
        +[](void* p) { static_cast<Fn*>(p)->~Fn(); },
    };
    void move_from(InplaceFunction& o) {
        if (!o.call_) return;
        if (o.manage_) o.manage_->move(storage_, o.storage_);
        else std::memcpy(storage_, o.storage_, Capacity);
        call_ = o.call_;
        manage_ = o.manage_;
        o.call_ = nullptr;
        o.manage_ = nullptr;
    }

    alignas(std::max_align_t) unsigned char storage_[Capacity];
    void (*call_)(void*) = nullptr;
    const Manage* manage_ = nullptr;  // null: trivially copyable
};

}  // namespace niclab
