// The debug back door (the seed's RAS path): peek and poke SRAM through either
// view without costing the firmware simulated time; anything outside SRAM is
// refused naming the address.
#include <array>

#include "nic_test_support.hpp"
#include "niclab/fw/hw.h"

namespace niclab::test {
namespace {

constexpr uint32_t kOffset = 0x4'0000;  // well inside SRAM, unused by the small examples
constexpr uint32_t kCached = NICLAB_SRAM_CACHED_BASE + kOffset;
constexpr uint32_t kUncached = NICLAB_SRAM_UNCACHED_BASE + kOffset;

TEST(DebugDoor, BothViewsAliasTheSameBytes) {
    auto sys = make_system();
    nic::EmbeddedNic& nic = sys->nic(0);
    nic.poke32(kUncached, 0xDEADBEEF);
    EXPECT_EQ(nic.peek32(kCached), 0xDEADBEEFu);

    const std::array<uint8_t, 6> bytes{1, 2, 3, 4, 5, 6};
    nic.write_sram(kCached + 0x11, bytes);  // unaligned and odd-sized is fine for the debugger
    std::array<uint8_t, 6> back{};
    nic.read_sram(kUncached + 0x11, back);
    EXPECT_EQ(back, bytes);
    EXPECT_EQ(nic.sram_offset(kCached, 4), kOffset);
    EXPECT_EQ(nic.sram_offset(kUncached, 4), kOffset);
}

TEST(DebugDoor, FirstAndLastWordOfEachView) {
    auto sys = make_system();
    nic::EmbeddedNic& nic = sys->nic(0);
    const uint32_t last = NICLAB_SRAM_SIZE - 4;
    nic.poke32(NICLAB_SRAM_CACHED_BASE + last, 0x11223344);
    EXPECT_EQ(nic.peek32(NICLAB_SRAM_UNCACHED_BASE + last), 0x11223344u);
    nic.poke32(NICLAB_SRAM_UNCACHED_BASE, 0x55667788);
    EXPECT_EQ(nic.peek32(NICLAB_SRAM_CACHED_BASE), 0x55667788u);
}

TEST(DebugDoor, OutsideSramThrowsNamingTheAddress) {
    auto sys = make_system();
    nic::EmbeddedNic& nic = sys->nic(0);
    for (uint32_t address : {0x0000'1000u, NICLAB_CTRL_BASE, NICLAB_SRAM_UNCACHED_BASE - 4,
                             // straddling the end of the uncached view into the cached one
                             NICLAB_SRAM_UNCACHED_BASE + NICLAB_SRAM_SIZE - 2,
                             // the last 2 bytes of the address space plus 2 beyond
                             0xFFFF'FFFEu}) {
        SCOPED_TRACE(hex32(address));
        try {
            nic.peek32(address);
            ADD_FAILURE() << "peek32 accepted " << hex32(address);
        } catch (const std::out_of_range& e) {
            EXPECT_NE(std::string(e.what()).find(hex32(address)), std::string::npos) << e.what();
        }
        EXPECT_THROW(nic.poke32(address, 1), std::out_of_range);
    }
    std::array<uint8_t, 8> buf{};
    EXPECT_THROW(nic.read_sram(NICLAB_SRAM_CACHED_BASE + NICLAB_SRAM_SIZE - 4, buf), std::out_of_range);
}

TEST(DebugDoor, InspectingDoesNotAdvanceSimulatedTime) {
    auto sys = make_system({{"firmware", "counter"}});
    nic::EmbeddedNic& nic = sys->nic(0);
    sys->run_for(Time::us(50));
    const Time now = sys->now();
    const uint64_t cycles = nic.cpu().cycles(), instret = nic.cpu().instret();
    const uint32_t pc = nic.cpu().pc();
    const uint32_t counter = nic.peek32(symbol(nic, "fw_counter"));

    std::string console = nic.console();
    uint32_t sink = 0, csr = 0;
    for (int i = 0; i < 1000; ++i) {
        sink += nic.peek32(kCached) + nic.cpu().reg(unsigned(i % 32)) + nic.cpu().pc();
        nic.cpu().read_csr(0x300, csr);  // mstatus
    }
    std::array<uint8_t, 256> block{};
    nic.read_sram(NICLAB_SRAM_UNCACHED_BASE, block);
    (void)sink;

    EXPECT_EQ(sys->now(), now);
    EXPECT_EQ(nic.cpu().cycles(), cycles);
    EXPECT_EQ(nic.cpu().instret(), instret);
    EXPECT_EQ(nic.cpu().pc(), pc);
    EXPECT_EQ(nic.peek32(symbol(nic, "fw_counter")), counter);
}

// Peeking between slices of a run must not perturb the firmware's timing.
TEST(DebugDoor, PeekingDuringARunDoesNotChangeIt) {
    auto quiet = make_system({{"firmware", "counter"}});
    auto watched = make_system({{"firmware", "counter"}});
    const uint32_t counter = symbol(watched->nic(0), "fw_counter");
    std::vector<uint32_t> seen;
    quiet->set_observer([](Time) { return true; }, Time::us(10));
    watched->set_observer(
        [&](Time) {
            seen.push_back(watched->nic(0).peek32(counter));
            (void)watched->nic(0).console();
            return true;
        },
        Time::us(10));
    quiet->run_until(Time::us(300));
    watched->run_until(Time::us(300));

    ASSERT_GE(seen.size(), 20u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_GT(seen.back(), seen.front());
    EXPECT_EQ(watched->nic(0).cpu().cycles(), quiet->nic(0).cpu().cycles());
    EXPECT_EQ(watched->nic(0).cpu().instret(), quiet->nic(0).cpu().instret());
    EXPECT_EQ(watched->nic(0).peek32(counter), quiet->nic(0).peek32(counter));
}

TEST(DebugDoor, PokeChangesWhatTheFirmwareReads) {
    auto sys = make_system();
    nic::EmbeddedNic& nic = sys->nic(0);
    nic.load_firmware(firmware("crc32"));  // stopped at its running flag, before it reads `iterations`
    nic.poke32(symbol(nic, "iterations"), 2);
    sys->run_until(Time::max());
    ASSERT_TRUE(nic.halted());
    EXPECT_EQ(nic.cpu().exit_code(), 0u);
    EXPECT_NE(nic.console().find("crc32 x2 of 4096 bytes"), std::string::npos) << nic.console();
}

TEST(DebugDoor, PokedCodeIsExecutedNotAStaleDecode) {
    auto sys = make_system();
    nic::EmbeddedNic& nic = sys->nic(0);
    nic.load_firmware(firmware("spin"));
    sys->run_for(Time::us(1));  // the spin loop has been decoded and executed
    ASSERT_FALSE(nic.faulted());
    const uint32_t pc = nic.cpu().pc();
    nic.poke32(pc, 0);  // all zeros: an illegal instruction where the core is looping
    sys->run_for(Time::us(1));
    ASSERT_TRUE(nic.faulted());
    EXPECT_EQ(nic.fault()->info().cause, uint32_t(core::TrapCause::IllegalInstruction));
    EXPECT_EQ(nic.fault()->info().pc, pc);
}

}  // namespace
}  // namespace niclab::test
