// Context switches (HostConfig::context_switch, address_space_switch): a core that
// starts running another process than the one it ran last pays the switch as system
// time of the incoming process; a process of another address space pays the MMU
// remap on top, a thread of the same process does not (seed 003 §8.4 compares the
// two). Interrupts and a core coming back from idle to the same process pay nothing.
#include <gtest/gtest.h>

#include <stdexcept>

#include "host_test_support.hpp"

namespace niclab::host::test {

namespace {

HostConfig switching() {
    HostConfig c;
    c.context_switch = us(1);
    c.address_space_switch = us(4);
    return c;
}

// Two processes that hand the core to each other `rounds` times through a condition.
struct PingPong {
    Condition turn;
    int next = 0;  // whose turn: 0 or 1
    void play(ProcessContext& ctx, int me, int rounds) {
        for (int i = 0; i < rounds; ++i) {
            ctx.wait_for(turn, [&] { return next == me; });
            ctx.compute(us(10));
            next = 1 - me;
            turn.notify_all();
        }
    }
};

}  // namespace

TEST(ContextSwitch, ZeroCostsChangeNothing) {
    HostFixture f;
    PingPong g;
    Process& a = f.spawn("a", [&](ProcessContext& ctx) { g.play(ctx, 0, 3); });
    Process& b = f.spawn("b", [&](ProcessContext& ctx) { g.play(ctx, 1, 3); });
    f.run();
    EXPECT_EQ(b.end_time(), us(60));
    EXPECT_EQ(a.system_time() + b.system_time(), Time{});
}

TEST(ContextSwitch, ProcessesPayTheAddressSpaceSwitchThreadsDoNot) {
    for (bool threads : {false, true}) {
        HostFixture f(switching());
        PingPong g;
        Process& a = f.spawn("a", [&](ProcessContext& ctx) { g.play(ctx, 0, 3); });
        Process& b = f.spawn("b", [&](ProcessContext& ctx) { g.play(ctx, 1, 3); });
        if (threads) b.share_address_space_with(a);
        f.run();
        // Six hand-overs, each a switch; the first run of `a` is one too (the core ran
        // nothing before, so no address space to leave).
        const Time per = threads ? us(1) : us(5);
        EXPECT_EQ(a.system_time(), us(1) + per * 2) << (threads ? "threads" : "processes");
        EXPECT_EQ(b.system_time(), per * 3);
        EXPECT_EQ(b.end_time(), us(60) + us(1) + per * 5);
        EXPECT_EQ(f.cpu.times().system, a.system_time() + b.system_time());
    }
}

TEST(ContextSwitch, ComingBackFromIdleOrAnInterruptIsNoSwitch) {
    HostFixture f(switching());
    Process& p = f.spawn("p", [](ProcessContext& ctx) {
        ctx.compute(us(10));
        ctx.sleep_for(us(5));
        ctx.compute(us(10));
    });
    f.kernel.schedule_at(us(20), [&] { f.cpu.raise_interrupt([](InterruptContext&) {}); });
    f.run();
    EXPECT_EQ(p.system_time(), us(1));  // only its first dispatch
    const Time irq = f.cpu.config().interrupt_entry + f.cpu.config().interrupt_exit;
    EXPECT_EQ(p.end_time(), us(26) + irq);
}

TEST(ContextSwitch, KernelThreadsBorrowTheAddressSpace) {
    HostFixture f(switching());
    Condition wake;
    bool go = false;
    Process& k = f.spawn("bh", [&](ProcessContext& ctx) {
        ctx.wait_for(wake, [&] { return go; });
        ctx.compute(us(3));
    }, Priority::kernel);
    Process& p = f.spawn("p", [&](ProcessContext& ctx) {
        ctx.compute(us(10));
        go = true;
        wake.notify_all();
        ctx.sleep_for(us(1));  // lets the kernel thread in
        ctx.compute(us(10));
    });
    f.run();
    // k: first dispatch, then the switch in (no address space change); p: its first
    // dispatch, then back from k to the same address space: context switches only.
    EXPECT_EQ(k.system_time(), us(3) + us(2));
    EXPECT_EQ(p.system_time(), us(2));
}

TEST(ContextSwitch, KernelThreadsShareNoAddressSpace) {
    HostFixture g;
    Process& u = g.spawn("u", [](ProcessContext&) {});
    Process& k = g.spawn("k", [](ProcessContext&) {}, Priority::kernel);
    EXPECT_THROW(k.share_address_space_with(u), std::invalid_argument);
}

TEST(ContextSwitch, NegativeCostsAreRefused) {
    HostConfig c;
    c.context_switch = Time::ns(-1);
    EXPECT_THROW(c.validate(), HostConfigError);
    c = {};
    c.address_space_switch = Time::ns(-1);
    EXPECT_THROW(c.validate(), HostConfigError);
}

}  // namespace niclab::host::test
