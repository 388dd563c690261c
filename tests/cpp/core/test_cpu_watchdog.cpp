// The watchdog stops a core that makes no observable progress (a store outside
// cached SRAM, wfi, a trap) for watchdog_cycles, instead of letting a hung
// firmware spin forever.
#include "cpu_fixture.hpp"

namespace niclab::test {
namespace {

using namespace rv;

class Watchdog : public CpuTest {
protected:
    Watchdog() { cfg_.watchdog_cycles = 1000; }
    // A loop iteration's cost, so the test knows how far past the limit the core may go
    // (the loops stay in their line: no line read after the first).
    uint64_t jal_cost() const { return cfg_.cpi_alu + cfg_.taken_branch_penalty; }
};

TEST_F(Watchdog, SpinningLoopTrips) {
    program(0x00, {nop(), jal(0, 0)});  // 0x04: jump to itself
    core::Cpu& c = start();
    run_until(Time::us(100));
    ASSERT_EQ(c.state(), core::Cpu::State::Faulted);
    EXPECT_EQ(c.fault()->kind, core::FaultKind::Watchdog);
    EXPECT_EQ(c.fault()->pc, 0x04u);
    // Stopped within one iteration of the watchdog period, not at the end of the run.
    EXPECT_GT(c.cycles(), cfg_.watchdog_cycles);
    EXPECT_LE(c.cycles(), cfg_.watchdog_cycles + jal_cost());
}

TEST_F(Watchdog, StoresToCachedSramAreNotProgress) {
    program(0x00, {sw(0, 0, 0x200), jal(0, -4)});  // the host cannot see these stores
    core::Cpu& c = start();
    run_until(Time::us(100));
    ASSERT_EQ(c.state(), core::Cpu::State::Faulted);
    EXPECT_EQ(c.fault()->kind, core::FaultKind::Watchdog);
}

TEST_F(Watchdog, StoresToUncachedSramAreProgress) {
    program(0x00, {lui(9, kUncachedBase >> 12), sw(0, 9, 0x200), jal(0, -4)});
    core::Cpu& c = start();
    run_until(Time::us(100));  // 50 watchdog periods
    EXPECT_EQ(c.state(), core::Cpu::State::Running);
    EXPECT_FALSE(c.fault().has_value());
}

// Sleeping in wfi is not a hang: a core woken long after the watchdog period
// must carry on, not fault and not stall.
TEST_F(Watchdog, LongSleepInWfiIsNotAHang) {
    program(0x00, {
        addi(5, 0, int32_t(core::kMipMTIP)),
        csrrw(0, kMie, 5),
        wfi(),
        addi(1, 0, 42),
        wfi(),
    });
    core::Cpu& c = start();
    const Time wake = c.clock().cycles(10 * cfg_.watchdog_cycles);
    kernel_.schedule_at(wake, [&c] {
        c.set_interrupt_pending(core::kMipMTIP, true);
        c.set_interrupt_pending(core::kMipMTIP, false);
    });
    run_until(wake + Time::us(1));
    EXPECT_FALSE(c.fault().has_value());
    EXPECT_EQ(c.reg(1), 42u) << "the woken core did not run";
    EXPECT_EQ(c.state(), core::Cpu::State::Waiting);
}

TEST_F(Watchdog, OffWhenZero) {
    cfg_.watchdog_cycles = 0;
    program(0x00, {jal(0, 0)});
    core::Cpu& c = start();
    run_until(Time::us(100));
    EXPECT_EQ(c.state(), core::Cpu::State::Running);
}

}  // namespace
}  // namespace niclab::test
