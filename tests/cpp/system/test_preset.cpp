// Presets carry a citation for every parameter, and overrides really change the
// simulated hardware.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "niclab/system/config_error.hpp"
#include "niclab/system/system.hpp"

namespace niclab::system {
namespace {

using nlohmann::json;

std::filesystem::path hello() { return std::filesystem::path(NICLAB_FIRMWARE_DIR) / "examples" / "hello.elf"; }

TEST(Preset, SeastarIsKnown) {
    auto names = Preset::names();
    EXPECT_NE(std::find(names.begin(), names.end(), "seastar"), names.end());
    EXPECT_THROW(Preset::named("nope"), ConfigError);
}

TEST(Preset, EveryParameterCitesItsSource) {
    for (const std::string& name : Preset::names()) {
        Preset p = Preset::named(name);
        EXPECT_FALSE(p.description().empty()) << name;
        ASSERT_FALSE(p.parameters().empty()) << name;
        for (const Parameter& param : p.parameters()) {
            SCOPED_TRACE(name + " " + param.key);
            EXPECT_FALSE(param.source.empty());
            EXPECT_FALSE(param.unit.empty());
            EXPECT_GE(param.value, 0);
        }
        // The preset names its parts, and its system knows every parameter it sets.
        for (const char* part : {"host", "bus", "nic", "network"}) EXPECT_TRUE(p.parts().contains(part)) << name << " " << part;
        const auto decls = p.model().parameters();
        EXPECT_EQ(decls.size(), p.parameters().size()) << name;
    }
}

TEST(Preset, SeastarValuesReachTheNic) {
    System sys(SystemSpec::from_json(json::object()));
    const Preset& p = sys.preset();
    const nic::EmbeddedNicConfig& cfg = sys.nic(0).config();
    EXPECT_EQ(cfg.core.clock_mhz, p.value("core.clock_mhz"));
    EXPECT_EQ(int64_t(cfg.core.icache.size_bytes), p.value("core.icache.size_bytes"));
    EXPECT_EQ(cfg.boot_timeout, Time::us(p.integer("boot_timeout_us")));
    EXPECT_EQ(int64_t(cfg.core.watchdog_cycles), p.value("core.watchdog_us") * p.value("core.clock_mhz"));
}

TEST(Preset, OverridesAreMarkedAsSuch) {
    System sys(SystemSpec::from_json({{"set", {{"core", {{"clock_mhz", 250}}}}}}));
    for (const Parameter& param : sys.preset().parameters()) {
        if (param.key == "core.clock_mhz") {
            EXPECT_EQ(param.value, 250);
            EXPECT_EQ(param.source, "override");
        } else {
            EXPECT_NE(param.source, "override") << param.key;
        }
    }
}

TEST(Preset, WatchdogPeriodFollowsAnOverriddenClock) {
    System sys(SystemSpec::from_json({{"set", {{"core.clock_mhz", 250}, {"core.watchdog_us", 40}}}}));
    EXPECT_EQ(sys.nic(0).config().core.watchdog_cycles, 40u * 250u);
}

TEST(Preset, HalfTheClockTakesAboutTwiceAsLong) {
    auto boot = [](int64_t mhz) {
        System sys(SystemSpec::from_json({{"set", {{"core.clock_mhz", mhz}}}}));
        nic::EmbeddedNic& nic = sys.nic(0);
        EXPECT_EQ(nic.cpu().clock().mhz(), mhz);
        nic::BootReport r = nic.load_firmware(hello());
        sys.run_until(Time::max());
        EXPECT_NE(nic.console().find("at " + std::to_string(mhz) + " MHz"), std::string::npos) << nic.console();
        return std::pair{r, nic.cpu().stop_time() - r.started};
    };
    auto [boot500, run500] = boot(500);
    auto [boot250, run250] = boot(250);
    // Same instructions; only the clock changed. Device latencies are in ns and do
    // not scale, so "about" twice.
    EXPECT_EQ(boot250.instructions, boot500.instructions);
    const double boot_ratio = double((boot250.running - boot250.started).ps()) /
                              double((boot500.running - boot500.started).ps());
    EXPECT_GT(boot_ratio, 1.7);
    EXPECT_LT(boot_ratio, 2.05);
    const double run_ratio = double(run250.ps()) / double(run500.ps());
    EXPECT_GT(run_ratio, 1.7);
    EXPECT_LT(run_ratio, 2.05);
}

}  // namespace
}  // namespace niclab::system

namespace niclab::system {
namespace {

// t9000-25 names t9000-20 as its base and lists only what differs: the clock and what
// follows from it; everything else, citations included, is the base's.
TEST(Preset, ABasePresetGivesEverythingTheVariantDoesNotSet) {
    const Preset fast = Preset::named("t9000-25");
    const Preset base = Preset::named("t9000-20");
    EXPECT_EQ(fast.name(), "t9000-25");
    EXPECT_EQ(fast.value("cpu.clock_mhz"), 25);
    EXPECT_EQ(base.value("cpu.clock_mhz"), 20);
    ASSERT_EQ(fast.parameters().size(), base.parameters().size());
    int differ = 0;
    for (const auto& p : base.parameters()) {
        if (fast.value(p.key) != p.value) ++differ;
    }
    EXPECT_EQ(differ, 2);  // the clock and the block-move copy bandwidth
    EXPECT_NE(fast.parts().at("host").get<std::string>().find("25 MHz"), std::string::npos);
    EXPECT_EQ(fast.parts().at("network"), base.parts().at("network"));
}

}  // namespace
}  // namespace niclab::system
