// The core's debug hooks without a socket: breakpoints, watchpoints and single steps
// stop where they should and never change what the firmware does or when.
#include <functional>

#include "niclab/core/debug_hooks.hpp"
#include "nic_test_support.hpp"

namespace niclab::test {
namespace {

struct Recorder : core::DebugListener {
    explicit Recorder(core::Cpu& c) : cpu(c) {}
    core::Resume stopped(const core::DebugStop& why) override {
        stops.push_back(why);
        instret.push_back(cpu.instret());
        if (steps_left > 0) {
            --steps_left;
            return core::Resume::Step;
        }
        return core::Resume::Continue;
    }
    bool poll() override { return false; }
    core::Cpu& cpu;
    std::vector<core::DebugStop> stops;
    std::vector<uint64_t> instret;
    int steps_left = 0;
};

struct Outcome {
    uint64_t cycles, instret, events;
    uint32_t ticks;
    int64_t now_ps;
    bool operator==(const Outcome&) const = default;
};

Outcome run_demo(const std::function<void(nic::EmbeddedNic&)>& setup) {
    auto sys = make_system({{"nodes", 1}, {"firmware", "gdb_demo"}});
    auto& nic = sys->nic(0);
    setup(nic);
    sys->run_for(Time::us(300));
    Outcome o{nic.cpu().cycles(), nic.cpu().instret(), sys->kernel().events_fired(),
              nic.peek32(symbol(nic, "gdb_ticks")), sys->now().ps()};
    nic.cpu().attach_debugger(nullptr);
    return o;
}

TEST(CpuDebug, BreakpointsAndWatchpointsStopButNeverChangeTiming) {
    Outcome plain = run_demo([](nic::EmbeddedNic&) {});
    std::unique_ptr<Recorder> rec;
    Outcome debugged = run_demo([&](nic::EmbeddedNic& nic) {
        rec = std::make_unique<Recorder>(nic.cpu());
        nic.cpu().attach_debugger(rec.get());
        ASSERT_TRUE(nic.cpu().set_breakpoint(symbol(nic, "tick"), true));
        ASSERT_TRUE(nic.cpu().set_watchpoint(symbol(nic, "gdb_ticks"), 4, core::WatchKind::Write, true));
    });
    EXPECT_EQ(plain, debugged);
    ASSERT_GT(plain.ticks, 10u);
    size_t breaks = 0, watches = 0;
    for (const auto& s : rec->stops) {
        breaks += s.kind == core::DebugStop::Kind::Breakpoint;
        watches += s.kind == core::DebugStop::Kind::Watch;
    }
    // One break per tick, and one more if the run ended between a break and its store.
    EXPECT_GE(breaks, plain.ticks);
    EXPECT_LE(breaks, plain.ticks + 1);
    EXPECT_EQ(watches, plain.ticks);
}

TEST(CpuDebug, WatchpointsSeeBothViewsOfSramAndOutsideSramIsRefused) {
    auto sys = make_system({{"nodes", 1}, {"firmware", "gdb_demo"}});
    auto& nic = sys->nic(0);
    Recorder rec(nic.cpu());
    nic.cpu().attach_debugger(&rec);
    const auto& sram = nic.config().sram;
    uint32_t cached = symbol(nic, "gdb_ticks");
    uint32_t alias = cached - sram.cached_base + sram.uncached_base;
    ASSERT_TRUE(nic.cpu().set_watchpoint(alias, 4, core::WatchKind::Write, true));  // the other view
    EXPECT_FALSE(nic.cpu().set_watchpoint(sram.cached_base + sram.size, 4, core::WatchKind::Write, true));
    EXPECT_FALSE(nic.cpu().set_breakpoint(sram.cached_base + sram.size, true));
    sys->run_for(Time::us(20));
    ASSERT_FALSE(rec.stops.empty());
    EXPECT_EQ(rec.stops[0].kind, core::DebugStop::Kind::Watch);
    EXPECT_EQ(rec.stops[0].watch_address, alias);  // reported as set, though the store used the cached view
    nic.cpu().attach_debugger(nullptr);
}

TEST(CpuDebug, AStepIsExactlyOneInstruction) {
    auto sys = make_system({{"nodes", 1}, {"firmware", "gdb_demo"}});
    auto& nic = sys->nic(0);
    Recorder rec(nic.cpu());
    rec.steps_left = 6;
    nic.cpu().attach_debugger(&rec);
    nic.cpu().set_breakpoint(symbol(nic, "tick"), true);
    sys->run_for(Time::us(5));
    ASSERT_GE(rec.stops.size(), 7u);
    EXPECT_EQ(rec.stops[0].kind, core::DebugStop::Kind::Breakpoint);
    EXPECT_EQ(rec.stops[0].pc, symbol(nic, "tick"));
    for (size_t i = 1; i <= 6; ++i) {
        EXPECT_EQ(rec.stops[i].kind, core::DebugStop::Kind::Step);
        EXPECT_EQ(rec.instret[i], rec.instret[i - 1] + 1) << "step " << i;
    }
    nic.cpu().attach_debugger(nullptr);
}

}  // namespace
}  // namespace niclab::test
