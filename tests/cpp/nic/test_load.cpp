// The load flow of seed 000 §3.2: hold in reset, write the image, release, wait for
// the running flag. A good image boots; a bad one changes nothing on the NIC; a
// firmware that never sets its flag is a BootTimeout naming the flag and the PC.
#include "nic_test_support.hpp"
#include "niclab/fw/hw.h"

namespace niclab::test {
namespace {

TEST(Load, HelloBootsPrintsAndHaltsCleanly) {
    auto sys = make_system();
    nic::EmbeddedNic& nic = sys->nic(0);
    nic::BootReport boot = nic.load_firmware(firmware("hello"));

    EXPECT_GT(boot.running, boot.started);
    EXPECT_GT(boot.instructions, 0u);
    EXPECT_EQ(nic.peek32(NICLAB_BOOT_FLAG_ADDR), NICLAB_BOOT_RUNNING);
    EXPECT_EQ(nic.loads(), 1u);

    auto result = sys->run_until(Time::max());
    EXPECT_TRUE(result.faulted_nodes.empty());
    EXPECT_TRUE(nic.halted());
    EXPECT_EQ(nic.cpu().exit_code(), 0u);
    EXPECT_NE(nic.console().find("hello from niclab node 0 at 500 MHz\n"), std::string::npos) << nic.console();
    EXPECT_NE(nic.console().find("sum: 88\n"), std::string::npos) << nic.console();
    EXPECT_GT(nic.cpu().stop_time(), boot.running);
}

TEST(Load, EachNodeKnowsItsId) {
    auto sys = make_system({{"nodes", 3}, {"firmware", "hello"}});
    sys->run_until(Time::max());
    for (size_t i = 0; i < 3; ++i)
        EXPECT_NE(sys->nic(i).console().find("node " + std::to_string(i) + " at"), std::string::npos) << i;
}

// A bad image must be refused before the NIC is touched: same firmware, same state.
class BadImage : public ::testing::TestWithParam<const char*> {
protected:
    std::filesystem::path bad_image() {
        std::string kind = GetParam();
        if (kind == "text") return dir_.write("notes.elf", {'h', 'e', 'l', 'l', 'o', '\n'});
        if (kind == "empty") return dir_.write("empty.elf", {});
        auto bytes = read_bytes(firmware("hello"));
        bytes.resize(kind == std::string("truncated-header") ? 20 : bytes.size() / 2);
        return dir_.write("truncated.elf", bytes);
    }
    TempDir dir_;
};

TEST_P(BadImage, HaltedFirmwareIsUntouched) {
    auto sys = make_system({{"firmware", "hello"}});
    nic::EmbeddedNic& nic = sys->nic(0);
    sys->run_until(Time::max());
    ASSERT_TRUE(nic.halted());
    const std::string build_id = nic.image()->build_id();
    const std::string console = nic.console();
    const uint64_t cycles = nic.cpu().cycles();

    EXPECT_THROW(nic.load_firmware(bad_image()), fw::FirmwareImageError);

    EXPECT_TRUE(nic.halted());
    EXPECT_EQ(nic.cpu().exit_code(), 0u);
    EXPECT_EQ(nic.image()->build_id(), build_id);
    EXPECT_EQ(nic.image()->path(), firmware("hello"));
    EXPECT_EQ(nic.console(), console);
    EXPECT_EQ(nic.cpu().cycles(), cycles);
    EXPECT_EQ(nic.loads(), 1u);
}

TEST_P(BadImage, RunningFirmwareKeepsRunning) {
    auto sys = make_system({{"firmware", "counter"}});
    nic::EmbeddedNic& nic = sys->nic(0);
    const uint32_t counter = symbol(nic, "fw_counter");
    sys->run_for(Time::us(50));
    const std::string build_id = nic.image()->build_id();

    try {
        nic.reload_firmware(bad_image());
        ADD_FAILURE() << "a bad image was accepted";
    } catch (const fw::FirmwareImageError& e) {
        EXPECT_FALSE(e.rule().empty());
    }

    const uint32_t before = nic.peek32(counter);
    sys->run_for(Time::us(50));
    EXPECT_FALSE(nic.faulted());
    EXPECT_GT(nic.peek32(counter), before) << "the counter firmware stopped after a refused reload";
    EXPECT_EQ(nic.image()->build_id(), build_id);
}

INSTANTIATE_TEST_SUITE_P(Kinds, BadImage, ::testing::Values("text", "empty", "truncated-header", "truncated-half"),
                         [](const auto& info) {
                             std::string n = info.param;
                             for (char& c : n)
                                 if (c == '-') c = '_';
                             return n;
                         });

TEST(Load, MissingFileIsAnImageError) {
    auto sys = make_system();
    EXPECT_THROW(sys->nic(0).load_firmware("/nonexistent/dir/hello.elf"), fw::FirmwareImageError);
    EXPECT_EQ(sys->nic(0).loads(), 0u);
}

TEST(Load, NoBootIsABootTimeoutNamingTheFlagAndThePc) {
    auto sys = make_system();
    nic::EmbeddedNic& nic = sys->nic(0);
    try {
        nic.load_firmware(firmware("noboot"));
        FAIL() << "noboot booted";
    } catch (const nic::BootTimeout& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(hex32(NICLAB_BOOT_FLAG_ADDR)), std::string::npos) << msg;
        EXPECT_NE(msg.find("main"), std::string::npos) << msg;          // noboot sleeps in main
        // (the source line is runtime.h's, where the inlined fw_wfi lives)
        EXPECT_NE(e.where().find("main"), std::string::npos) << e.where();
        EXPECT_EQ(e.info().kind, core::FaultKind::BootTimeout);
        EXPECT_EQ(e.info().pc, nic.cpu().pc());
    }
    // The simulator gave up after the configured boot timeout, not before.
    EXPECT_GE(sys->now(), nic.config().boot_timeout);
    EXPECT_TRUE(nic.faulted());
}

TEST(Load, BootTimeoutIsAFirmwareFault) {
    auto sys = make_system();
    EXPECT_THROW(sys->nic(0).load_firmware(firmware("noboot")), core::FirmwareFault);
    // ... and the NIC can be loaded again afterwards.
    sys->nic(0).load_firmware(firmware("hello"));
    sys->run_until(Time::max());
    EXPECT_TRUE(sys->nic(0).halted());
    EXPECT_EQ(sys->nic(0).cpu().exit_code(), 0u);
}

}  // namespace
}  // namespace niclab::test
