// Integer picosecond time and clock conversions (cycles_ceil rounds up: a device
// is ready at the clock edge after its latency).
#include <gtest/gtest.h>

#include "niclab/sim/time.hpp"

namespace niclab {
namespace {

TEST(SimTime, UnitsAndArithmetic) {
    EXPECT_EQ(Time::ns(1).ps(), 1000);
    EXPECT_EQ(Time::us(1), Time::ns(1000));
    EXPECT_EQ(Time::ms(1), Time::us(1000));
    EXPECT_EQ(Time::ns(3) + Time::ps(5), Time::ps(3005));
    EXPECT_EQ(Time::ns(3) - Time::ns(5), Time::ns(-2));
    EXPECT_EQ(Time::ns(3) * 4, Time::ns(12));
    EXPECT_EQ(Time::ns(12) / Time::ns(5), 2);
    EXPECT_DOUBLE_EQ(Time::ns(1500).as_us(), 1.5);
    EXPECT_DOUBLE_EQ(Time::ps(2500).as_ns(), 2.5);
    EXPECT_LT(Time::ns(1), Time::max());
}

TEST(SimClock, CyclesAndPeriod) {
    constexpr Clock c = Clock::from_mhz(500);
    static_assert(c.period_ps() == 2000);
    EXPECT_EQ(c.mhz(), 500);
    EXPECT_EQ(c.period(), Time::ns(2));
    EXPECT_EQ(c.cycles(0), Time{});
    EXPECT_EQ(c.cycles(33), Time::ns(66));
}

TEST(SimClock, CyclesCeilRoundsUp) {
    constexpr Clock c = Clock::from_mhz(500);
    EXPECT_EQ(c.cycles_ceil(Time{}), 0u);
    EXPECT_EQ(c.cycles_ceil(Time::ps(-5)), 0u);
    EXPECT_EQ(c.cycles_ceil(Time::ps(1)), 1u);
    EXPECT_EQ(c.cycles_ceil(Time::ps(1999)), 1u);
    EXPECT_EQ(c.cycles_ceil(Time::ps(2000)), 1u);
    EXPECT_EQ(c.cycles_ceil(Time::ps(2001)), 2u);
    EXPECT_EQ(c.cycles_ceil(Time::ns(160)), 80u);  // the SeaStar host read latency
    EXPECT_EQ(c.cycles_ceil(c.cycles(12345)), 12345u);
}

}  // namespace
}  // namespace niclab
