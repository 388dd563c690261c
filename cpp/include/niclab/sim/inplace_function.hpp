#pragma once
// A move-only callable stored inline (no heap), so scheduling an event never
// allocates. Captures larger than Capacity are a compile error, not a slow path.
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace niclab {

template <std::size_t Capacity = 48>
class InplaceFunction {
public:
    InplaceFunction() = default;

    template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, InplaceFunction>>>
    InplaceFunction(F&& f) {  // NOLINT: implicit by design, like std::function
        using Fn = std::decay_t<F>;
        static_assert(sizeof(Fn) <= Capacity, "event capture too large for InplaceFunction");
        static_assert(alignof(Fn) <= alignof(std::max_align_t));
        ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
        // Copied whole when moved (see Ops): the bytes past the callable are set too.
        if constexpr (kTrivial<Fn>) std::memset(storage_ + sizeof(Fn), 0, Capacity - sizeof(Fn));
        ops_ = &ops_for<Fn>;
    }

    InplaceFunction(InplaceFunction&& o) noexcept { move_from(o); }
    InplaceFunction& operator=(InplaceFunction&& o) noexcept {
        if (this != &o) { reset(); move_from(o); }
        return *this;
    }
    InplaceFunction(const InplaceFunction&) = delete;
    InplaceFunction& operator=(const InplaceFunction&) = delete;
    ~InplaceFunction() { reset(); }

    void operator()() { ops_->call(storage_); }
    explicit operator bool() const { return ops_ != nullptr; }
    void reset() {
        if (ops_) {
            if (ops_->destroy) ops_->destroy(storage_);
            ops_ = nullptr;
        }
    }

private:
    // move and destroy are null for a trivially copyable callable (a lambda capturing
    // `this` and a few numbers, as nearly every event's does): its bytes are copied and
    // nothing is called. An event's callback is moved twice and destroyed once, and
    // those three indirect calls were a tenth of the kernel's work per event.
    struct Ops {
        void (*call)(void*);
        void (*move)(void* dst, void* src);
        void (*destroy)(void*);
    };
    template <typename Fn>
    static constexpr bool kTrivial = std::is_trivially_copyable_v<Fn> && std::is_trivially_destructible_v<Fn>;
    template <typename Fn>
    static constexpr Ops ops_for{
        [](void* p) { (*static_cast<Fn*>(p))(); },
        kTrivial<Fn> ? nullptr
                     : +[](void* d, void* s) { ::new (d) Fn(std::move(*static_cast<Fn*>(s))); static_cast<Fn*>(s)->~Fn(); },
        kTrivial<Fn> ? nullptr : +[](void* p) { static_cast<Fn*>(p)->~Fn(); },
    };
    void move_from(InplaceFunction& o) {
        if (!o.ops_) return;
        if (o.ops_->move) o.ops_->move(storage_, o.storage_);
        else std::memcpy(storage_, o.storage_, Capacity);
        ops_ = o.ops_;
        o.ops_ = nullptr;
    }

    alignas(std::max_align_t) unsigned char storage_[Capacity];
    const Ops* ops_ = nullptr;
};

}  // namespace niclab
