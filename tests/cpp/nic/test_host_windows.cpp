// Firmware reaches host memory only through the windows the driver opened, within
// their limit, and writes only through writable ones; anything else is an access
// fault and host memory stays as it was (the sandbox of DESIGN.md).
#include <array>
#include <numeric>

#include "nic_test_support.hpp"
#include "niclab/fw/hw.h"
#include "niclab/systems/seastar/seastar.hpp"

namespace niclab::test {
namespace {

constexpr uint64_t kBuffer = 0x1234'5000;   // host physical address the window maps
constexpr uint32_t kDest = 0x100;           // host_copy copies 64 bytes from 0 to here
constexpr size_t kBytes = 64;

class HostWindow : public ::testing::Test {
protected:
    void SetUp() override {
        std::iota(pattern_.begin(), pattern_.end(), uint8_t{0xA0});
        memory().write(kBuffer, pattern_);
        pages_before_ = memory().pages_touched();
    }
    host::HostMemory& memory() { return sys_->host_memory(0); }
    nic::EmbeddedNic& nic() { return sys_->nic(0); }
    seastar::HostBridge& bridge() { return seastar::seastar_nic(*sys_, 0).host_bridge(); }
    std::array<uint8_t, kBytes> host_bytes(uint64_t addr) {
        std::array<uint8_t, kBytes> out{};
        memory().read(addr, out);
        return out;
    }
    void load_and_run() {
        nic().load_firmware(firmware("host_copy"));
        sys_->run_until(Time::max());
    }
    // The fault host_copy stopped with; fails the test if it did not fault.
    core::FirmwareFault fault() {
        EXPECT_TRUE(nic().faulted());
        auto f = nic().fault();
        if (!f) throw std::runtime_error("host_copy did not fault");
        return *f;
    }
    void expect_host_memory_unchanged() {
        EXPECT_EQ(host_bytes(kBuffer), pattern_);
        EXPECT_EQ(host_bytes(kBuffer + kDest), (std::array<uint8_t, kBytes>{}));
        EXPECT_EQ(memory().pages_touched(), pages_before_);
    }

    std::unique_ptr<system::System> sys_ = make_system();
    std::array<uint8_t, kBytes> pattern_{};
    uint64_t pages_before_ = 0;
};

TEST_F(HostWindow, OpenWindowReadsAndWritesHostMemory) {
    bridge().open_window(0, kBuffer, 0x1000, true);
    load_and_run();
    ASSERT_FALSE(nic().faulted()) << nic().fault()->what();
    EXPECT_TRUE(nic().halted());
    EXPECT_EQ(nic().cpu().exit_code(), 0u);
    EXPECT_EQ(nic().console(), "host_copy: copied 64 bytes\n");
    EXPECT_EQ(host_bytes(kBuffer + kDest), pattern_);
    EXPECT_EQ(host_bytes(kBuffer), pattern_);
}

TEST_F(HostWindow, ClosedWindowIsALoadFault) {
    load_and_run();
    core::FirmwareFault f = fault();
    EXPECT_EQ(f.info().cause, uint32_t(core::TrapCause::LoadAccessFault));
    EXPECT_EQ(f.info().tval, 0u);
    EXPECT_NE(std::string(f.what()).find("copy_through_window"), std::string::npos) << f.what();
    expect_host_memory_unchanged();
}

TEST_F(HostWindow, WindowClosedAgainIsALoadFault) {
    bridge().open_window(0, kBuffer, 0x1000, true);
    bridge().close_window(0);
    load_and_run();
    EXPECT_EQ(fault().info().cause, uint32_t(core::TrapCause::LoadAccessFault));
    expect_host_memory_unchanged();
}

TEST_F(HostWindow, WriteBeyondTheLimitIsAStoreFault) {
    bridge().open_window(0, kBuffer, kDest, true);  // the source fits, the destination does not
    load_and_run();
    core::FirmwareFault f = fault();
    EXPECT_EQ(f.info().cause, uint32_t(core::TrapCause::StoreAccessFault));
    EXPECT_EQ(f.info().tval, kDest);
    EXPECT_NE(std::string(f.what()).find("store access fault"), std::string::npos) << f.what();
    expect_host_memory_unchanged();
}

TEST_F(HostWindow, LimitIsExactToTheByte) {
    // 32 bytes of the destination lie inside the window: those words land, the
    // first word past the limit faults, and nothing beyond the limit is written.
    bridge().open_window(0, kBuffer, kDest + 32, true);
    load_and_run();
    core::FirmwareFault f = fault();
    EXPECT_EQ(f.info().cause, uint32_t(core::TrapCause::StoreAccessFault));
    EXPECT_EQ(f.info().tval, kDest + 32);
    auto dest = host_bytes(kBuffer + kDest);
    EXPECT_TRUE(std::equal(dest.begin(), dest.begin() + 32, pattern_.begin()));
    EXPECT_TRUE(std::all_of(dest.begin() + 32, dest.end(), [](uint8_t b) { return b == 0; }));
}

TEST_F(HostWindow, ReadBeyondTheLimitIsALoadFault) {
    bridge().open_window(0, kBuffer, 2, true);  // open, but shorter than one word
    load_and_run();
    core::FirmwareFault f = fault();
    EXPECT_EQ(f.info().cause, uint32_t(core::TrapCause::LoadAccessFault));
    EXPECT_EQ(f.info().tval, 0u);
    expect_host_memory_unchanged();
}

TEST_F(HostWindow, ReadOnlyWindowRefusesWrites) {
    bridge().open_window(0, kBuffer, 0x1000, false);
    load_and_run();
    core::FirmwareFault f = fault();
    EXPECT_EQ(f.info().cause, uint32_t(core::TrapCause::StoreAccessFault));
    EXPECT_EQ(f.info().tval, kDest);
    expect_host_memory_unchanged();
}

TEST_F(HostWindow, OnlyItsOwnNodesMemoryIsReachable) {
    auto two = make_system({{"nodes", 2}});
    std::array<uint8_t, kBytes> other{};
    other.fill(0x5A);
    two->host_memory(1).write(kBuffer, other);
    two->host_memory(0).write(kBuffer, pattern_);
    seastar::seastar_nic(*two, 0).host_bridge().open_window(0, kBuffer, 0x1000, true);
    two->nic(0).load_firmware(firmware("host_copy"));
    two->run_until(Time::max());
    ASSERT_TRUE(two->nic(0).halted());
    std::array<uint8_t, kBytes> out{};
    two->host_memory(1).read(kBuffer + kDest, out);
    EXPECT_EQ(out, (std::array<uint8_t, kBytes>{}));
    two->host_memory(0).read(kBuffer + kDest, out);
    EXPECT_EQ(out, pattern_);
}

TEST(HostBridge, BadWindowIndexOrLimitIsRefused) {
    auto sys = make_system();
    EXPECT_THROW(seastar::seastar_nic(*sys, 0).host_bridge().open_window(15, 0, 16, true), std::out_of_range);
    EXPECT_THROW(seastar::seastar_nic(*sys, 0).host_bridge().open_window(0, 0, NICLAB_HOST_WINDOW_SIZE + 1, true), std::out_of_range);
}

}  // namespace
}  // namespace niclab::test
