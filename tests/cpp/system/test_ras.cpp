// RAS watches the NIC heartbeats (seed 000 §5.3): a NIC whose heartbeat stops is
// marked dead and reported; a beating one is left alone; the watch is off by default.
#include <gtest/gtest.h>

#include "niclab/system/system.hpp"

namespace niclab::test {
namespace {

system::SystemSpec heartbeat_spec(int64_t timeout_us) {
    system::SystemSpec s;
    s.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/examples/heartbeat.elf"};
    s.overrides = {{"ras.heartbeat_timeout_us", timeout_us}};
    return s;
}

TEST(Ras, StoppedHeartbeatIsMarkedDeadAndReported) {
    system::System sys(heartbeat_spec(50));
    auto r = sys.run_until(Time::us(1000));  // 20 beats of 10 us, then silence
    ASSERT_EQ(r.dead_nodes, std::vector<size_t>{0});
    EXPECT_TRUE(sys.dead(0));
    EXPECT_NE(sys.dead_reason(0).find("heartbeat stuck at 20"), std::string::npos) << sys.dead_reason(0);
    EXPECT_FALSE(sys.nic(0).faulted()) << "dead to RAS, but the core itself did not fault";
    EXPECT_TRUE(sys.run_until(Time::us(2000)).dead_nodes.empty()) << "reported once";
}

// RAS samples every timeout/2, so a stop is seen after the timeout and at most two
// sample periods: never before the timeout has passed since the last beat.
TEST(Ras, DeathIsSeenAfterTheTimeoutAndWithinTwoSamplePeriods) {
    system::System sys(heartbeat_spec(50));
    sys.run_until(Time::us(150));
    const Time last_beat = Time::us(191);  // the 20th beat: 19 periods of 10 us after boot
    sys.run_until(last_beat + Time::us(50));
    EXPECT_FALSE(sys.dead(0));
    sys.run_until(last_beat + Time::us(50 + 2 * 25));
    EXPECT_TRUE(sys.dead(0));
}

TEST(Ras, BeatingNicStaysAlive) {
    system::System sys(heartbeat_spec(50));
    uint32_t beats = 0;
    ASSERT_TRUE(sys.nic(0).image()->find_symbol("beats", beats));
    sys.nic(0).poke32(beats, 0);  // beat forever
    auto r = sys.run_until(Time::us(2000));
    EXPECT_TRUE(r.dead_nodes.empty());
    EXPECT_FALSE(sys.dead(0));
}

TEST(Ras, ReloadRevivesTheWatch) {
    system::System sys(heartbeat_spec(50));
    sys.run_until(Time::us(1000));
    ASSERT_TRUE(sys.dead(0));
    sys.nic(0).reload_firmware(std::string(NICLAB_FIRMWARE_DIR) + "/examples/heartbeat.elf");
    sys.run_until(sys.now() + Time::us(100));
    EXPECT_FALSE(sys.dead(0));
}

TEST(Ras, OffByDefault) {
    system::SystemSpec s = heartbeat_spec(0);
    s.overrides = nlohmann::json::object();
    system::System sys(s);
    EXPECT_TRUE(sys.run_until(Time::us(1000)).dead_nodes.empty());
}

}  // namespace
}  // namespace niclab::test
