// A firmware fault stops its NIC with a FirmwareFault naming the PC (hex), its
// function and source line, the cause and the faulting address; the process and
// the other NICs go on.
#include "nic_test_support.hpp"
#include "niclab/fw/hw.h"

namespace niclab::test {
namespace {

constexpr uint32_t kCsrMepc = 0x341;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Loads `name`, runs to quiescence, and returns the fault the NIC stopped with.
core::FirmwareFault run_to_fault(system::System& sys, const std::string& name) {
    nic::EmbeddedNic& nic = sys.nic(0);
    nic.load_firmware(firmware(name));
    auto result = sys.run_until(Time::max());
    EXPECT_EQ(result.faulted_nodes, std::vector<size_t>{0});
    EXPECT_TRUE(nic.faulted());
    auto fault = nic.fault();
    if (!fault) throw std::runtime_error(name + " did not fault");
    return *fault;
}

TEST(Fault, IllegalInstructionNamesFunctionLineAndPc) {
    auto sys = make_system();
    core::FirmwareFault f = run_to_fault(*sys, "fault_illegal");
    const std::string msg = f.what();
    // gcc's line table puts the .word at the function's opening brace or at the asm
    // statement (it gives the brace here); either names the right place.
    const int asm_line = source_line("fault_illegal.c", ".word 0x00000000");
    const std::string line = "fault_illegal.c:" + std::to_string(asm_line);
    const std::string brace = "fault_illegal.c:" + std::to_string(asm_line - 1);

    EXPECT_TRUE(contains(msg, "illegal instruction")) << msg;
    EXPECT_TRUE(contains(msg, "do_illegal_instruction")) << msg;
    EXPECT_TRUE(contains(msg, line) || contains(msg, brace)) << msg;
    EXPECT_TRUE(contains(msg, hex32(f.info().pc))) << msg;
    EXPECT_TRUE(contains(f.where(), "do_illegal_instruction")) << f.where();
    EXPECT_TRUE(contains(f.where(), line) || contains(f.where(), brace)) << f.where();
    EXPECT_EQ(f.info().kind, core::FaultKind::UnhandledTrap);
    EXPECT_EQ(f.info().cause, uint32_t(core::TrapCause::IllegalInstruction));
    EXPECT_EQ(f.info().pc, symbol(sys->nic(0), "do_illegal_instruction"));
    EXPECT_EQ(sys->nic(0).cpu().pc(), f.info().pc);  // stopped on the instruction, not past it
}

TEST(Fault, PanicNamesTheReasonAndTheCallingLine) {
    auto sys = make_system();
    core::FirmwareFault f = run_to_fault(*sys, "fault_panic");
    const std::string msg = f.what();
    const std::string line = "fault_panic.c:" + std::to_string(source_line("fault_panic.c", "fw_panic(\"widget"));
    EXPECT_EQ(f.info().kind, core::FaultKind::Panic);
    EXPECT_EQ(f.info().message, "widget pool exhausted (4 of 4 in use)");
    EXPECT_TRUE(contains(msg, "firmware panic: widget pool exhausted (4 of 4 in use)")) << msg;
    EXPECT_TRUE(contains(f.where(), "allocate_widget")) << f.where();
    EXPECT_TRUE(contains(f.where(), line)) << f.where();
}

TEST(Fault, LoadAccessFaultNamesTheAddress) {
    auto sys = make_system();
    core::FirmwareFault f = run_to_fault(*sys, "fault_load");
    const std::string msg = f.what();
    EXPECT_TRUE(contains(msg, "load access fault")) << msg;
    EXPECT_TRUE(contains(msg, "0xe0000000")) << msg;
    EXPECT_TRUE(contains(msg, "read_unopened_window")) << msg;
    EXPECT_TRUE(contains(msg, "fault_load.c:")) << msg;
    EXPECT_EQ(f.info().cause, uint32_t(core::TrapCause::LoadAccessFault));
    EXPECT_EQ(f.info().tval, NICLAB_HOST_WINDOW_ADDR(14u));
    EXPECT_EQ(sys->host_memory(0).pages_touched(), 0u);
}

TEST(Fault, UnfetchableTrapHandlerIsADoubleFault) {
    auto sys = make_system();
    core::FirmwareFault f = run_to_fault(*sys, "double_fault");
    const std::string msg = f.what();
    EXPECT_EQ(f.info().kind, core::FaultKind::DoubleFault);
    EXPECT_TRUE(contains(msg, "double fault")) << msg;
    EXPECT_TRUE(contains(msg, "0xe0000000")) << msg;  // the handler address
    // The trap that led there came from trap_into_nowhere (mepc says so).
    uint32_t mepc = 0;
    ASSERT_TRUE(sys->nic(0).cpu().read_csr(kCsrMepc, mepc));
    EXPECT_EQ(mepc, symbol(sys->nic(0), "trap_into_nowhere"));
}

// With tracing built in, the report ends with the way to the fault: the last records
// of the trace ring, decoded (values 1 and 2 at main's two trace points).
TEST(Fault, ReportOfATracedFirmwareEndsWithItsLastTraceRecords) {
    auto sys = make_system();
    core::FirmwareFault f = run_to_fault(*sys, "fault_illegal_traced");
    const std::string msg = f.what();
    const size_t tail = msg.find("last trace records:");
    ASSERT_NE(tail, std::string::npos) << msg;
    EXPECT_TRUE(contains(msg.substr(tail), ": 1: 01")) << msg;
    EXPECT_TRUE(contains(msg.substr(tail), ": 2: 02")) << msg;
    EXPECT_TRUE(contains(msg.substr(tail), "main+")) << msg;

    auto plain = make_system();
    EXPECT_FALSE(contains(run_to_fault(*plain, "fault_illegal").what(), "trace")) << "no ring, no records";
}

TEST(Fault, DoubleFaultReportNamesTheFirstTrapsFunction) {
    auto sys = make_system();
    core::FirmwareFault f = run_to_fault(*sys, "double_fault");
    // The report names the instruction that trapped (mepc), not just the dead handler.
    EXPECT_TRUE(contains(f.what(), "trap_into_nowhere")) << f.what();
    EXPECT_TRUE(contains(f.what(), "double fault")) << f.what();
}

TEST(Fault, WatchdogStopsAStuckFirmware) {
    auto sys = make_system({{"set", {{"core.watchdog_us", 50}}}});
    nic::EmbeddedNic& nic = sys->nic(0);
    nic::BootReport boot = nic.load_firmware(firmware("spin"));
    auto result = sys->run_until(Time::ms(1));

    EXPECT_EQ(result.faulted_nodes, std::vector<size_t>{0});
    ASSERT_TRUE(nic.fault().has_value());
    core::FirmwareFault f = *nic.fault();
    EXPECT_EQ(f.info().kind, core::FaultKind::Watchdog);
    EXPECT_TRUE(contains(f.what(), "watchdog")) << f.what();
    EXPECT_TRUE(contains(f.where(), "main")) << f.where();  // spin loops in main
    // It fired one watchdog period after the last progress (the running-flag store).
    EXPECT_GE(f.info().time, boot.running + Time::us(50));
    EXPECT_LE(f.info().time, boot.running + Time::us(51));
}

TEST(Fault, WatchdogSparesAFirmwareThatSleeps) {
    auto sys = make_system({{"set", {{"core.watchdog_us", 50}}}, {"firmware", "counter"}});
    auto result = sys->run_until(Time::ms(1));
    EXPECT_TRUE(result.faulted_nodes.empty());
    EXPECT_FALSE(sys->nic(0).faulted());
}

TEST(Fault, AFaultedNicDoesNotStopTheOtherNode) {
    auto sys = make_system({{"nodes", 2}, {"firmware", {"fault_illegal", "counter"}}});
    nic::EmbeddedNic& counter_nic = sys->nic(1);
    const uint32_t counter = symbol(counter_nic, "fw_counter");

    sys->run_until(Time::us(100));
    EXPECT_TRUE(sys->nic(0).faulted());
    EXPECT_FALSE(counter_nic.faulted());
    const uint32_t at_100us = counter_nic.peek32(counter);

    auto result = sys->run_until(Time::us(200));
    EXPECT_EQ(result.reached, Time::us(200));
    EXPECT_TRUE(result.faulted_nodes.empty());  // node 0 faulted in an earlier run
    EXPECT_FALSE(counter_nic.faulted());
    // counter increments every 1000 cycles = 2 us at 500 MHz: about 50 in 100 us.
    EXPECT_GE(counter_nic.peek32(counter) - at_100us, 45u);
}

TEST(Fault, FaultIsReportedOnceButRemembered) {
    auto sys = make_system();
    run_to_fault(*sys, "fault_illegal");
    auto again = sys->run_for(Time::us(10));
    EXPECT_TRUE(again.faulted_nodes.empty());
    EXPECT_TRUE(sys->nic(0).fault().has_value());
}

}  // namespace
}  // namespace niclab::test
