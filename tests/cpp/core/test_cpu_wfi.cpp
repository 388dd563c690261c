// wfi: a core with nothing to do sleeps (no simulated work, not active for the
// kernel) until an *enabled* interrupt is pending, whatever mstatus.MIE says
// (privileged spec, "Wait for Interrupt"); with MIE = 0 it then continues after
// the wfi without taking a trap.
#include "cpu_fixture.hpp"

namespace niclab::test {
namespace {

using namespace rv;

class Wfi : public CpuTest {
protected:
    // mie = `enable`, mstatus.MIE stays 0; sleep; then x1 = 42 and sleep again.
    core::Cpu& start_sleeper(uint32_t enable) {
        program(0x00, {
            addi(5, 0, int32_t(enable)),
            csrrw(0, kMie, 5),
            wfi(),              // 0x08
            addi(1, 0, 42),     // 0x0c
            wfi(),              // 0x10
            jal(0, 0),          // 0x14: spin if the second wfi falls through
        });
        return start();
    }
};

TEST_F(Wfi, NothingPendingSleeps) {
    core::Cpu& c = start_sleeper(core::kMipMTIP);
    run_until(Time::us(10));
    EXPECT_EQ(c.state(), core::Cpu::State::Waiting);
    EXPECT_FALSE(c.active());
    EXPECT_EQ(c.pc(), 0x0cu);
    EXPECT_EQ(c.reg(1), 0u);
    EXPECT_EQ(c.cycles(), line_read() + 2 * cfg_.cpi_alu + cfg_.cpi_csr)
        << "a sleeping core must not accumulate cycles";
}

TEST_F(Wfi, EnabledInterruptWakesEvenWithMieClear) {
    core::Cpu& c = start_sleeper(core::kMipMTIP);
    const Time wake = Time::us(2);
    kernel_.schedule_at(wake, [&c] { c.set_interrupt_pending(core::kMipMTIP, true); });
    run_until(Time::us(3));
    EXPECT_EQ(c.reg(1), 42u) << "did not wake";
    EXPECT_EQ(csr(kMcause), 0u) << "MIE = 0: no trap may be taken";
    EXPECT_EQ(c.pc(), 0x14u) << "the second wfi falls through: MTIP is still pending";
    EXPECT_TRUE(c.active());
    // It resumes at the interrupt's time, not at the cycle it went to sleep.
    EXPECT_GE(c.local_time(), wake + c.clock().cycles(cfg_.cpi_alu));
}

TEST_F(Wfi, WakeTimeIsTheInterruptTime) {
    core::Cpu& c = start_sleeper(core::kMipMTIP);
    kernel_.schedule_at(Time::us(2), [&c] {
        c.set_interrupt_pending(core::kMipMTIP, true);
        c.set_interrupt_pending(core::kMipMTIP, false);  // a pulse: the second wfi sleeps again
    });
    run_until(Time::us(3));
    ASSERT_EQ(c.state(), core::Cpu::State::Waiting);
    EXPECT_EQ(c.reg(1), 42u);
    EXPECT_EQ(c.cycles(), c.cycle_at(Time::us(2)) + 2 * cfg_.cpi_alu);  // the line is still in the fill buffer
}

// An interrupt between two clock edges wakes the core at the next edge: it must
// not resume before the event that woke it.
TEST_F(Wfi, WakeBetweenClockEdgesResumesAtTheNextEdge) {
    core::Cpu& c = start_sleeper(core::kMipMTIP);
    const Time wake = Time::ns(2001) + Time::ps(1);  // 1 ps after a 500 MHz edge
    kernel_.schedule_at(wake, [&c] {
        c.set_interrupt_pending(core::kMipMTIP, true);
        c.set_interrupt_pending(core::kMipMTIP, false);
    });
    run_until(Time::us(3));
    ASSERT_EQ(c.reg(1), 42u);
    EXPECT_EQ(c.cycles(), c.clock().cycles_ceil(wake) + 2 * cfg_.cpi_alu);
}

TEST_F(Wfi, DisabledInterruptDoesNotWake) {
    core::Cpu& c = start_sleeper(core::kMipMEIP);  // only external interrupts enabled
    kernel_.schedule_at(Time::us(2), [&c] { c.set_interrupt_pending(core::kMipMTIP, true); });
    run_until(Time::us(3));
    EXPECT_EQ(c.state(), core::Cpu::State::Waiting);
    EXPECT_EQ(c.reg(1), 0u);
}

TEST_F(Wfi, AlreadyPendingInterruptMakesWfiFallThrough) {
    core::Cpu& c = start_sleeper(core::kMipMTIP);
    c.set_interrupt_pending(core::kMipMTIP, true);
    run_until(Time::us(1));
    EXPECT_EQ(c.reg(1), 42u);
    EXPECT_TRUE(c.active());
}

}  // namespace
}  // namespace niclab::test
