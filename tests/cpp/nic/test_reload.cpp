// Reload is the load flow on a live NIC and may be repeated any number of times:
// each reload really replaces the image, and nothing of the previous firmware
// (console, armed timer, fault) leaks into the next.
#include "nic_test_support.hpp"

namespace niclab::test {
namespace {

constexpr uint32_t kCsrMip = 0x344;
constexpr uint32_t kMipMtip = 1u << 7;

TEST(Reload, AlternatingImagesManyTimes) {
    auto sys = make_system();
    nic::EmbeddedNic& nic = sys->nic(0);
    struct Expect {
        const char* name;
        uint32_t version;
        const char* console;
    };
    const Expect a{"reload_a", 0xA, "reload_a version A\n"};
    const Expect b{"reload_b", 0xB, "reload_b version B\n"};

    for (int i = 0; i < 20; ++i) {
        for (const Expect& e : {a, b, a}) {
            SCOPED_TRACE(std::string(e.name) + " round " + std::to_string(i));
            nic.reload_firmware(firmware(e.name));
            sys->run_for(Time::us(20));
            EXPECT_EQ(nic.image()->path(), firmware(e.name));
            EXPECT_EQ(nic.peek32(symbol(nic, "fw_version")), e.version);
            EXPECT_EQ(nic.console(), e.console);  // exactly: the previous console is gone
            EXPECT_FALSE(nic.faulted());
        }
    }
    EXPECT_EQ(nic.loads(), 60u);
}

// A core left behind global time by a run that ended early (see the bug notes).
bool stranded(system::System& sys, const nic::EmbeddedNic& nic) {
    return nic.cpu().active() && nic.cpu().local_time() < sys.now();
}

TEST(Reload, ArmedTimerOfThePreviousFirmwareDoesNotFire) {
    auto sys = make_system({{"firmware", "timer_irq"}});
    nic::EmbeddedNic& nic = sys->nic(0);
    sys->run_for(Time::us(5));  // a few of its ten ticks, the next one armed
    ASSERT_FALSE(nic.halted());

    nic.reload_firmware(firmware("hello"));
    sys->run_for(Time::us(100));  // hello needs about 8 us
    // The cancelled timer of the old image must not end the run with the core left behind.
    ASSERT_FALSE(stranded(*sys, nic)) << "core at " << nic.cpu().local_time().as_us() << " us, global time "
                                      << sys->now().as_us() << " us";
    EXPECT_TRUE(nic.halted());
    EXPECT_EQ(nic.cpu().exit_code(), 0u);
    EXPECT_EQ(nic.console().rfind("hello from niclab", 0), 0u) << nic.console();
    EXPECT_EQ(nic.console().find("timer_irq"), std::string::npos);
    uint32_t mip = 0;
    ASSERT_TRUE(nic.cpu().read_csr(kCsrMip, mip));
    EXPECT_EQ(mip & kMipMtip, 0u) << "timer_irq's timer fired into hello";
}

// The strongest form of "nothing leaks": a reloaded firmware runs exactly as it
// does on a fresh NIC, cycle for cycle.
TEST(Reload, ReloadedFirmwareRunsExactlyLikeAFreshLoad) {
    auto fresh = make_system();
    nic::BootReport fresh_boot = fresh->nic(0).load_firmware(firmware("timer_irq"));
    fresh->run_for(Time::us(100));

    auto reloaded = make_system({{"firmware", "timer_irq"}});
    reloaded->run_for(Time::us(7));
    nic::BootReport boot = reloaded->nic(0).reload_firmware(firmware("timer_irq"));
    reloaded->run_for(Time::us(100));

    const nic::EmbeddedNic& f = fresh->nic(0);
    const nic::EmbeddedNic& r = reloaded->nic(0);
    ASSERT_TRUE(f.halted());
    ASSERT_TRUE(r.halted());
    EXPECT_EQ(r.console(), f.console());
    EXPECT_EQ(r.cpu().cycles(), f.cpu().cycles());
    EXPECT_EQ(r.cpu().instret(), f.cpu().instret());
    EXPECT_EQ(boot.instructions, fresh_boot.instructions);
    EXPECT_EQ(boot.running - boot.started, fresh_boot.running - fresh_boot.started);
    EXPECT_EQ(r.cpu().stop_time() - boot.started, f.cpu().stop_time() - fresh_boot.started);
}

TEST(Reload, AfterAFaultTheNicLoadsAgain) {
    auto sys = make_system({{"firmware", "fault_illegal"}});
    nic::EmbeddedNic& nic = sys->nic(0);
    sys->run_for(Time::us(50));
    ASSERT_TRUE(nic.faulted());

    nic.reload_firmware(firmware("hello"));
    EXPECT_FALSE(nic.faulted());
    EXPECT_FALSE(nic.fault().has_value());
    sys->run_for(Time::us(50));
    EXPECT_TRUE(nic.halted());
    EXPECT_EQ(nic.cpu().exit_code(), 0u);
}

// Running "until nothing is left to do" must leave time where the work ended, so
// the NIC can be used again (the Python default: nic.run() with no limit).
TEST(Reload, AfterRunningToQuiescence) {
    auto sys = make_system({{"firmware", "hello"}});
    nic::EmbeddedNic& nic = sys->nic(0);
    auto result = sys->run_until(Time::max());
    ASSERT_TRUE(nic.halted());
    EXPECT_LT(result.reached, Time::ms(1));
    EXPECT_GE(result.reached, nic.cpu().stop_time());
    nic.reload_firmware(firmware("hello"));
    sys->run_until(Time::max());
    EXPECT_TRUE(nic.halted());
    EXPECT_EQ(nic.cpu().exit_code(), 0u);
}

}  // namespace
}  // namespace niclab::test
