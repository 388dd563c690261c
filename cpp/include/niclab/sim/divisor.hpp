#pragma once
// A divisor fixed at run time (a bus rate, a link's serialization fraction, a ring's
// size) that the packet path divides by once or more per packet: the quotient comes from
// a multiply and a shift prepared when the value is set (libdivide), the same quotient as
// the `/` it replaces, without a hardware division (about a tenth of a bulk transfer's
// host time went to those). It reads and assigns as the plain integer it stands for, so a
// parameter struct can hold one in place of the integer.
#include <concepts>
#include <cstdint>

#include <libdivide.h>

namespace niclab::sim {

template <std::unsigned_integral T>
class Divisor {
public:
    Divisor(T d = 1) { *this = d; }  // NOLINT: implicit, it stands for the integer
    Divisor& operator=(T d) {
        value_ = d;
        // libdivide cannot prepare a zero; dividing by a zero Divisor is undefined, as
        // `/ 0` is: its owner validates first (HyperTransportParams::validate, Link's
        // rate checks).
        if (d != 0) div_ = libdivide::divider<T>(d);
        return *this;
    }
    operator T() const { return value_; }
    T value() const { return value_; }
    // Only for a dividend of the divisor's own type: any other (a double, a signed count)
    // converts the divisor and divides as before.
    template <std::same_as<T> N>
    friend T operator/(N n, const Divisor& d) { return n / d.div_; }
    template <std::same_as<T> N>
    friend T operator%(N n, const Divisor& d) { return n - (n / d.div_) * d.value_; }

private:
    T value_ = 1;
    libdivide::divider<T> div_;
};

}  // namespace niclab::sim
