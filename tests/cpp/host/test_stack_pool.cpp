// Finished processes give their fiber stacks back, so long runs stay small.
#include <gtest/gtest.h>

#include <memory>

#include "host_test_support.hpp"

namespace niclab::host::test {

TEST(StackPool, TenThousandProcessesInSequenceReuseOneStack) {
    HostFixture f;
    int finished = 0;
    for (int i = 0; i < 10'000; ++i) {
        auto p = std::make_unique<Process>(f.cpu, "p", [&](ProcessContext& ctx) {
            ctx.compute(ns(10));
            ++finished;
        });
        f.run(Time::ms(1000));
        ASSERT_TRUE(p->done());
    }
    EXPECT_EQ(finished, 10'000);
    EXPECT_EQ(f.cpu.stack_pool().in_use(), 0u);
    EXPECT_LE(f.cpu.stack_pool().mapped(), 1u);
    EXPECT_EQ(f.cpu.stack_pool().peak_in_use(), 1u);
    EXPECT_EQ(f.cpu.live_processes(), 0u);
    EXPECT_EQ(f.kernel.now(), ns(10) * 10'000);
}

TEST(StackPool, ConcurrentProcessesEachHoldAStackAndGiveItBack) {
    HostFixture f;
    Condition go;
    bool released = false;
    for (int i = 0; i < 100; ++i)
        f.spawn("w", [&](ProcessContext& ctx) { ctx.wait_for(go, [&] { return released; }); });
    f.run();
    EXPECT_EQ(f.cpu.stack_pool().in_use(), 100u);
    released = true;
    go.notify_all();
    f.run();
    EXPECT_EQ(f.cpu.stack_pool().in_use(), 0u);
    // At most the pool's idle cap stays mapped.
    EXPECT_LE(f.cpu.stack_pool().mapped(), 16u);
}

TEST(StackPool, DeepRecursionWithinTheStackWorks) {
    HostFixture f;
    Process& p = f.spawn("deep", [](ProcessContext& ctx) {
        // ~64 KB of frames, well inside the 256 KB default stack.
        struct R {
            static int go(int n) {
                volatile char pad[512];
                pad[0] = char(n);
                return n == 0 ? pad[0] : go(n - 1) + 1;
            }
        };
        if (R::go(128) != 128) throw std::runtime_error("recursion");
        ctx.compute(ns(1));
    });
    f.run();
    EXPECT_TRUE(p.done());
    EXPECT_FALSE(p.failed()) << p.error_message();
}

}  // namespace niclab::host::test
