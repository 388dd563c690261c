// Synchronous exceptions of the core: the trap CSRs a handler sees, and the
// FaultInfo the core stops with when there is no handler (mtvec = 0).
#include "cpu_fixture.hpp"

namespace niclab::test {
namespace {

using namespace rv;

constexpr uint32_t kHandler = 0x100;
constexpr uint32_t kUnimplementedCsr = 0x7C0;  // custom read/write space: nothing there
constexpr uint32_t kRejected = 0x20000000;     // neither SRAM nor a device on the fake bus

class Traps : public CpuTest {
protected:
    // Installs a handler at kHandler that copies mcause, mtval and mepc into x5-x7
    // and sleeps; `body` starts at 0x08.
    void with_handler(std::initializer_list<uint32_t> body) {
        program(0x00, {addi(8, 0, kHandler), csrrw(0, kMtvec, 8)});
        program(0x08, body);
        program(kHandler, {csrr(5, kMcause), csrr(6, kMtval), csrr(7, kMepc), wfi()});
    }
    void expect_trap(uint32_t cause, uint32_t tval, uint32_t epc) {
        EXPECT_EQ(cpu().state(), core::Cpu::State::Waiting) << "handler did not run";
        EXPECT_EQ(cpu().reg(5), cause);
        EXPECT_EQ(cpu().reg(6), tval);
        EXPECT_EQ(cpu().reg(7), epc);
    }
};

TEST_F(Traps, UnimplementedCsrIsAnIllegalInstruction) {
    const uint32_t insn = csrr(1, kUnimplementedCsr);
    with_handler({insn});
    start();
    run_until(Time::us(1));
    expect_trap(uint32_t(core::TrapCause::IllegalInstruction), insn, 0x08);
}

TEST_F(Traps, WritingAReadOnlyCsrIsAnIllegalInstruction) {
    const uint32_t insn = csrrw(0, kCycle, 1);  // cycle (0xC00) is read-only
    with_handler({insn});
    start();
    run_until(Time::us(1));
    expect_trap(uint32_t(core::TrapCause::IllegalInstruction), insn, 0x08);
}

TEST_F(Traps, LoadFromRejectedAddressIsALoadAccessFault) {
    with_handler({lui(9, kRejected >> 12), lw(1, 9, 0x24)});
    start();
    run_until(Time::us(1));
    expect_trap(uint32_t(core::TrapCause::LoadAccessFault), kRejected + 0x24, 0x0c);
    EXPECT_EQ(cpu().reg(1), 0u) << "a faulting load must not write its destination";
}

TEST_F(Traps, StoreToRejectedAddressIsAStoreAccessFault) {
    with_handler({lui(9, kRejected >> 12), sw(0, 9, 8)});
    start();
    run_until(Time::us(1));
    expect_trap(uint32_t(core::TrapCause::StoreAccessFault), kRejected + 8, 0x0c);
}

TEST_F(Traps, FaultingInstructionDoesNotRetire) {
    with_handler({csrr(1, kUnimplementedCsr)});
    start();
    run_until(Time::us(1));
    // addi, csrrw, (faulting csrr not counted), 3 handler csrr, wfi.
    EXPECT_EQ(cpu().instret(), 6u);
}

// A jump out of SRAM retires (the fault is on the fetch of its target, with mepc =
// mtval = the target); only the handler's instructions follow.
TEST_F(Traps, InstructionAccessFaultOnAJumpTarget) {
    with_handler({lui(9, kRejected >> 12), jalr(0, 9, 0x40)});
    start();
    run_until(Time::us(1));
    expect_trap(uint32_t(core::TrapCause::InstructionAccessFault), kRejected + 0x40, kRejected + 0x40);
    // addi, csrrw, lui, jalr, then 3 csrr + wfi in the handler.
    EXPECT_EQ(cpu().instret(), 8u);
}

TEST_F(Traps, FetchFaultAtResetRetiresNothing) {
    core::Cpu& c = start(kRejected);
    run_until(Time::us(1));
    ASSERT_TRUE(c.fault().has_value());
    EXPECT_EQ(c.fault()->cause, uint32_t(core::TrapCause::InstructionAccessFault));
    EXPECT_EQ(c.fault()->pc, kRejected);
    EXPECT_EQ(c.instret(), 0u);
}

// Without a handler the core stops and reports what the firmware did.
TEST_F(Traps, NoHandlerStopsTheCoreWithFaultInfo) {
    const uint32_t insn = csrr(1, kUnimplementedCsr);
    program(0x00, {nop(), nop(), insn, nop()});
    core::Cpu& c = start();
    run_until(Time::us(1));
    ASSERT_EQ(c.state(), core::Cpu::State::Faulted);
    ASSERT_TRUE(c.fault().has_value());
    const core::FaultInfo& f = *c.fault();
    EXPECT_EQ(f.kind, core::FaultKind::UnhandledTrap);
    EXPECT_EQ(f.pc, 0x08u);
    EXPECT_EQ(f.cause, uint32_t(core::TrapCause::IllegalInstruction));
    EXPECT_EQ(f.tval, insn);
    EXPECT_EQ(f.time, c.local_time());
    EXPECT_EQ(c.stop_time(), f.time);
    EXPECT_FALSE(c.active());
}

TEST_F(Traps, NoHandlerLoadFaultNamesTheAddress) {
    program(0x00, {lui(9, kRejected >> 12), lw(1, 9, 4)});
    core::Cpu& c = start();
    run_until(Time::us(1));
    ASSERT_TRUE(c.fault().has_value());
    EXPECT_EQ(c.fault()->cause, uint32_t(core::TrapCause::LoadAccessFault));
    EXPECT_EQ(c.fault()->tval, kRejected + 4);
    EXPECT_EQ(c.fault()->pc, 0x04u);
}

// The device answers: no fault, and the load stalls for the device's latency.
TEST_F(Traps, LoadFromADeviceStallsForItsLatency) {
    program(0x00, {lui(9, FakeBus::kDeviceBase >> 12), lw(1, 9, 0x10), wfi()});
    core::Cpu& c = start();
    run_until(Time::us(1));
    ASSERT_EQ(c.state(), core::Cpu::State::Waiting);
    EXPECT_EQ(c.reg(1), 0xCAFE0010u);
    const uint64_t stall = c.clock().cycles_ceil(bus_.read_latency);
    EXPECT_EQ(c.cycles(), line_read() + 2 * cfg_.cpi_alu + cfg_.cpi_load + stall);
}

}  // namespace
}  // namespace niclab::test
