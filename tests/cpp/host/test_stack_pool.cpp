// Finished processes give their fiber stacks back, so long runs stay small.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

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

// A stack the machine cannot map is a HostResourceError that says why, and the pool
// stays usable: out of memory (a stack larger than any machine's address space)...
TEST(StackPool, AStackTheMachineCannotMapIsATypedErrorSayingWhy) {
    FiberStackPool pool(std::size_t(1) << 46);  // 64 TB
    try {
        pool.allocate();
        FAIL() << "a 64 TB stack was mapped";
    } catch (const HostResourceError& e) {
        EXPECT_NE(std::string(e.what()).find("out of memory"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("68719476736 KB"), std::string::npos) << e.what();
    }
    EXPECT_EQ(pool.in_use(), 0u);
}

// ...or out of the kernel's memory mappings, which each stack takes two of: the message
// names the limit (vm.max_map_count) and how to raise it. The test takes up all of
// this process's mappings with single pages of alternating protection (neighbours of the
// same protection would merge into one mapping), and gives them back.
TEST(StackPool, RunningOutOfTheKernelsMappingsSaysSoAndNamesTheLimit) {
    std::ifstream limit_file("/proc/sys/vm/max_map_count");
    long limit = 0;
    if (!(limit_file >> limit) || limit > 1'000'000) GTEST_SKIP() << "no readable vm.max_map_count of a testable size";
    std::vector<void*> pages;
    const long page = 4096;
    for (long n = 0; n <= limit; ++n) {  // until the kernel refuses one
        void* p = mmap(nullptr, page, pages.size() % 2 ? PROT_READ : PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) break;
        pages.push_back(p);
    }
    FiberStackPool pool(64 * 1024);
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

}  // namespace niclab::host::test
