// Finished processes give their fiber stacks back to the arena all nodes share, so long
// runs stay small; the arena guards every stack and holds them in a few mappings.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <csignal>

#include <memory>
#include <string>
#include <vector>

#include "host_test_support.hpp"
#include "test_address_space.hpp"
#include "test_fork.hpp"

namespace niclab::host::test {

TEST(StackPool, TenThousandProcessesInSequenceReuseOneStack) {
    HostFixture f;
    const std::size_t arena_in_use = f.cpu.stack_pool().arena().in_use();
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
    EXPECT_EQ(f.cpu.stack_pool().arena().in_use(), arena_in_use);
    EXPECT_EQ(f.cpu.stack_pool().peak_in_use(), 1u);
    EXPECT_EQ(f.cpu.live_processes(), 0u);
    EXPECT_EQ(f.kernel.now(), ns(10) * 10'000);
}

TEST(StackPool, ConcurrentProcessesEachHoldAStackAndGiveItBack) {
    HostFixture f;
    const std::size_t arena_in_use = f.cpu.stack_pool().arena().in_use();
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
    EXPECT_EQ(f.cpu.stack_pool().arena().in_use(), arena_in_use);
    // At most the arena's warm cap keeps its pages.
    EXPECT_LE(f.cpu.stack_pool().arena().warm(), 64u);
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

// A stack the machine cannot map is a HostResourceError that says why, and the pool
// stays usable: out of memory (a stack larger than any machine's address space)...
TEST(StackPool, AStackTheMachineCannotMapIsATypedErrorSayingWhy) {
    StackArena arena(std::size_t(1) << 57);  // 128 PB: more than any x86-64 process's address space
    FiberStackPool pool(arena);
    try {
        pool.allocate();
        FAIL() << "a 128 PB stack was mapped";
    } catch (const HostResourceError& e) {
        EXPECT_NE(std::string(e.what()).find("out of memory"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("140737488355328 KB"), std::string::npos) << e.what();
    }
    EXPECT_EQ(pool.in_use(), 0u);
}

// ...or out of the kernel's memory mappings, which a new chunk of stacks needs one of
// (and each stack two of, where guards are mprotect's): the message names the limit
// (vm.max_map_count) and how to raise it. The test takes up all of this process's
// mappings with single pages of alternating protection (neighbours of the same
// protection would merge into one mapping), and gives them back.
TEST(StackPool, RunningOutOfTheKernelsMappingsSaysSoAndNamesTheLimit) {
    const long limit = sim::mapping_limit();
    if (limit <= 0 || limit > 1'000'000) GTEST_SKIP() << "no readable vm.max_map_count of a testable size";
    std::vector<void*> pages;
    const long page = 4096;
    for (long n = 0; n <= limit; ++n) {  // until the kernel refuses one
        void* p = mmap(nullptr, page, pages.size() % 2 ? PROT_READ : PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) break;
        pages.push_back(p);
    }
    StackArena arena(64 * 1024);
    FiberStackPool pool(arena);
    std::string what;
    try {
        pool.allocate();
    } catch (const HostResourceError& e) {
        what = e.what();
    }
    for (void* p : pages) munmap(p, page);
    EXPECT_NE(what.find("vm.max_map_count"), std::string::npos) << what;
    EXPECT_NE(what.find("(vm.max_map_count = " + std::to_string(limit) + ")"), std::string::npos) << what;
    EXPECT_NE(what.find("sysctl -w vm.max_map_count="), std::string::npos) << what;
    // With the mappings back, the same pool maps a stack.
    boost::context::stack_context sc = pool.allocate();
    EXPECT_EQ(pool.in_use(), 1u);
    pool.deallocate(sc);
}

// A thousand stacks, as many nodes' host processes, cost the arena's few chunks of
// mappings, not two each (the kernel's guard regions, Linux 6.13 and later).
TEST(StackArena, AThousandGuardedStacksTakeAFewMappings) {
    StackArena arena(64 * 1024);
    if (!arena.guard_regions()) GTEST_SKIP() << "this kernel has no guard regions (MADV_GUARD_INSTALL)";
    const long before = sim::mappings_held();
    std::vector<boost::context::stack_context> stacks;
    for (int i = 0; i < 1000; ++i) stacks.push_back(arena.take());
    for (auto& sc : stacks) static_cast<char*>(sc.sp)[-1] = 1;  // each stack touched
    EXPECT_EQ(arena.in_use(), 1000u);
    EXPECT_LE(arena.chunks(), 5u);  // 64 + 64 + 128 + 256 + 512 slots
    EXPECT_LE(sim::mappings_held() - before, long(arena.chunks()));
    for (auto& sc : stacks) arena.give(sc);
    EXPECT_EQ(arena.in_use(), 0u);
}

// More host processes alive at once than the kernel's mapping limit allowed when each
// stack and its guard took two mappings (vm.max_map_count / 2: some 32,000 by default),
// each with its stack in use.
TEST(StackArena, MoreLiveProcessesThanTheOldMappingCeilingAllowed) {
    const long limit = sim::mapping_limit();
    if (limit <= 0 || limit > 150'000) GTEST_SKIP() << "no readable vm.max_map_count of a testable size";
    if (!StackArena(64 * 1024).guard_regions()) GTEST_SKIP() << "this kernel has no guard regions (MADV_GUARD_INSTALL)";
    HostConfig cfg;
    cfg.fiber_stack_bytes = 16 * 1024;  // the smallest allowed: virtual room only
    HostFixture f(cfg);
    Condition go;
    bool released = false;
    int finished = 0;
    const long n = limit / 2 + 1000;
    for (long i = 0; i < n; ++i)
        f.spawn("w", [&](ProcessContext& ctx) {
            ctx.wait_for(go, [&] { return released; });
            ++finished;
        });
    f.run();
    EXPECT_EQ(f.cpu.stack_pool().in_use(), std::size_t(n));
    EXPECT_LT(sim::mappings_held(), limit / 4);
    released = true;
    go.notify_all();
    f.run(Time::ms(1000));
    EXPECT_EQ(finished, n);
    EXPECT_EQ(f.cpu.stack_pool().in_use(), 0u);
}

// Where guards are mprotect's (older kernels), each stack splits its chunk: two mappings.
TEST(StackArena, PageProtectionGuardsCostTwoMappingsAStack) {
    StackArena arena(64 * 1024, StackArena::Guards::page_protection);
    EXPECT_FALSE(arena.guard_regions());
    const long before = sim::mappings_held();
    std::vector<boost::context::stack_context> stacks;
    for (int i = 0; i < 100; ++i) stacks.push_back(arena.take());
    EXPECT_GE(sim::mappings_held() - before, 200 - 1);
    for (auto& sc : stacks) arena.give(sc);
}

// A write just below a stack's lowest byte is an overflow, and it faults: with either
// kind of guard.
void overflow_faults(StackArena::Guards guards) {
    StackArena arena(64 * 1024, guards);
    boost::context::stack_context sc = arena.take();
    volatile char* lowest = static_cast<char*>(sc.sp) - sc.size;
    lowest[0] = 1;  // the stack itself is writable
    EXPECT_EXIT(lowest[-1] = 1, testing::KilledBySignal(SIGSEGV), "");
    arena.give(sc);
}
TEST(StackArenaDeathTest, AnOverflowIntoTheGuardRegionFaults) { overflow_faults(StackArena::Guards::best); }
TEST(StackArenaDeathTest, AnOverflowIntoTheProtectedPageFaults) {
    overflow_faults(StackArena::Guards::page_protection);
}

// A fork while another thread takes and gives stacks (a sweep forks its workers; a
// simulation may be running on a thread of its own) leaves the child's arena usable.
TEST(StackArena, AForkWhileAnotherThreadTakesStacksLeavesTheChildsArenaUsable) {
    StackArena& arena = StackArena::shared(24 * 1024);  // a size no other test uses
    const auto take_and_give = [&] {
        boost::context::stack_context sc = arena.take();
        arena.give(sc);
        return 0;
    };
    const auto seen = niclab::test::fork_while_busy(200, 1, take_and_give, take_and_give);
    EXPECT_EQ(seen.stuck, 0) << "a forked child's arena was locked (fork " << seen.forks << " of 200)";
}

// Where the address space is limited (ulimit -v, bench_scale's --max-gb), a chunk of 64
// stacks that does not fit is not the end: the arena reserves fewer. In a child, whose
// limit is what it holds now plus room for about two 16 MB stacks.
int take_a_large_stack_under_a_tight_limit() {
    niclab::test::limit_address_space_to_held_plus(40 << 20);
    StackArena arena(16 << 20);
    boost::context::stack_context sc = arena.take();
    static_cast<char*>(sc.sp)[-1] = 1;
    return arena.slots_reserved() >= 1 && arena.slots_reserved() < 64 ? 0 : 1;
}
TEST(StackArenaDeathTest, UnderAnAddressSpaceLimitTheArenaReservesFewerStacksAtATime) {
    EXPECT_EXIT(_exit(take_a_large_stack_under_a_tight_limit()), testing::ExitedWithCode(0), "");
}

// Stacks given back beyond the warm few give their pages back to the kernel: the slot,
// reused, reads as fresh zero pages.
TEST(StackArena, StacksBeyondTheWarmFewGiveTheirPagesBack) {
    StackArena arena(64 * 1024, StackArena::Guards::best, /*keep_warm=*/2);
    boost::context::stack_context a = arena.take(), b = arena.take(), c = arena.take();
    for (auto* sc : {&a, &b, &c}) static_cast<char*>(sc->sp)[-1] = char(0xAB);
    arena.give(a);
    arena.give(b);
    arena.give(c);  // the third: released
    EXPECT_EQ(arena.warm(), 2u);
    boost::context::stack_context x = arena.take(), y = arena.take(), z = arena.take();
    EXPECT_EQ(static_cast<char*>(x.sp)[-1], char(0xAB));  // warm: b, then a
    EXPECT_EQ(static_cast<char*>(y.sp)[-1], char(0xAB));
    EXPECT_EQ(z.sp, c.sp);
    EXPECT_EQ(static_cast<char*>(z.sp)[-1], 0);
    EXPECT_EQ(arena.slots_reserved(), 64u);  // no slot reserved twice
    for (auto* sc : {&x, &y, &z}) arena.give(*sc);
}

}  // namespace niclab::host::test
