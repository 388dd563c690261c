#pragma once
// Simulated time: an integer count of picoseconds. No floating point inside the
// kernel, so runs are bit-for-bit deterministic.
#include <compare>
#include <cstdint>
#include <limits>

namespace niclab {

class Time {
public:
    constexpr Time() = default;
    static constexpr Time ps(int64_t v) { return Time(v); }
    static constexpr Time ns(int64_t v) { return Time(v * 1000); }
    static constexpr Time us(int64_t v) { return Time(v * 1000'000); }
    static constexpr Time ms(int64_t v) { return Time(v * 1000'000'000); }
    static constexpr Time max() { return Time(std::numeric_limits<int64_t>::max()); }

    constexpr int64_t ps() const { return v_; }
    constexpr double as_ns() const { return double(v_) / 1e3; }
    constexpr double as_us() const { return double(v_) / 1e6; }

    constexpr auto operator<=>(const Time&) const = default;
    constexpr Time operator+(Time o) const { return Time(v_ + o.v_); }
    constexpr Time operator-(Time o) const { return Time(v_ - o.v_); }
    constexpr Time& operator+=(Time o) { v_ += o.v_; return *this; }
    constexpr Time& operator-=(Time o) { v_ -= o.v_; return *this; }
    constexpr Time operator*(int64_t k) const { return Time(v_ * k); }
    constexpr int64_t operator/(Time o) const { return v_ / o.v_; }

private:
    constexpr explicit Time(int64_t v) : v_(v) {}
    int64_t v_ = 0;
};

// A clock: converts between cycles of a component and simulated time.
class Clock {
public:
    constexpr Clock() = default;
    constexpr explicit Clock(int64_t period_ps) : period_ps_(period_ps) {}
    static constexpr Clock from_mhz(int64_t mhz) { return Clock(1000'000 / mhz); }

    constexpr Time period() const { return Time::ps(period_ps_); }
    constexpr int64_t period_ps() const { return period_ps_; }
    constexpr int64_t mhz() const { return 1000'000 / period_ps_; }
    constexpr Time cycles(uint64_t n) const { return Time::ps(int64_t(n) * period_ps_); }
    // Whole cycles needed to cover `t` (rounds up: a device is ready at the edge after).
    constexpr uint64_t cycles_ceil(Time t) const {
        return t.ps() <= 0 ? 0 : uint64_t((t.ps() + period_ps_ - 1) / period_ps_);
    }

private:
    int64_t period_ps_ = 1000;
};

}  // namespace niclab
