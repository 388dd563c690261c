// Decoded code pages shared between cores that run the same code (core/code_pool.hpp).
// Cores on one kernel, each with its own SRAM loaded with the same program, share its
// pages through one pool; anything that changes the code for one core (its own store,
// a host write, a reload, a breakpoint) must change it for that core alone, and every
// core must give exactly what it gives with sharing off.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cpu_fixture.hpp"

namespace niclab::test {
namespace {

using namespace rv;

constexpr uint32_t kSramSize = 0x10000;
constexpr uint32_t kUncachedBase = 0x00100000;
constexpr uint32_t kSub = core::kCodePageBytes;  // a subroutine in the second code page
constexpr uint32_t kSmcWord = 0x10;  // rewritten by a core whose x20 is set
const uint32_t kOriginal = addi(11, 11, 1), kReplacement = addi(11, 11, 5);

// Two code pages: a loop in the first that calls a subroutine in the second, and, on a
// core whose x20 is set, stores kReplacement (x27) over the instruction it then runs.
std::vector<uint32_t> main_loop() {
    return {
        addi(10, 10, 1),          // 0x00  loop:
        jal(1, int32_t(kSub) - 4),  // 0x04  -> sub
        beq(20, 0, 8),            // 0x08  -> 0x10 unless x20
        sw(27, 25, 0),            // 0x0c  *kSmcWord = x27
        kOriginal,                // 0x10  kSmcWord
        div(12, 10, 11),          // 0x14
        sw(12, 26, 0),            // 0x18  a data store, outside the code pages
        jal(0, -0x1c),            // 0x1c  -> loop
    };
}
std::vector<uint32_t> subroutine() {
    return {
        add(13, 13, 10),  // kSub
        xor_(14, 14, 13),
        jalr(0, 1, 0),
    };
}

// Events that move the horizon until `until_ns`, so blocks meet it everywhere.
void move_the_horizon(sim::Kernel& kernel, int64_t until_ns) {
    for (int64_t ns = 7; ns < until_ns; ns += 41) kernel.schedule_at(Time::ns(ns), [] {});
}

struct Machine {
    std::vector<uint8_t> sram = std::vector<uint8_t>(kSramSize, 0);
    FakeBus bus;
    std::unique_ptr<core::Cpu> cpu;

    void load(uint32_t at, const std::vector<uint32_t>& words) {
        for (uint32_t w : words) { std::memcpy(&sram[at], &w, 4); at += 4; }
    }
    // Its core on `kernel`, sharing decoded pages through `pool` unless it is null.
    void make_core(sim::Kernel& kernel, core::CodePool* pool) {
        cpu = std::make_unique<core::Cpu>(kernel, core::CoreConfig{}, core::SramView{sram.data(), kSramSize, 0, kUncachedBase}, bus);
        if (pool) cpu->set_code_pool(pool);
    }
};

// What a core gave: the same with sharing on and off, to the cycle.
struct Outcome {
    uint64_t cycles, instret, stall, icache_misses, dcache_misses;
    uint32_t pc;
    std::vector<uint32_t> regs;
    bool operator==(const Outcome&) const = default;
};
void PrintTo(const Outcome& o, std::ostream* os) {
    *os << "cycles " << o.cycles << " instret " << o.instret << " pc " << o.pc << " x11 " << o.regs[11];
}

class Cores {
public:
    // `cores` cores loaded with the program, `smc` of them (the first ones) rewriting it.
    Cores(unsigned cores, unsigned smc, bool share, bool caches) {
        for (unsigned i = 0; i < cores; ++i) {
            auto m = std::make_unique<Machine>();
            m->load(0, main_loop());
            m->load(kSub, subroutine());
            m->make_core(kernel, share ? &pool : nullptr);
            machines.push_back(std::move(m));
            start(i, caches);
            cpu(i).set_reg(20, i < smc ? 1 : 0);
        }
        move_the_horizon(kernel, 40000);
    }
    ~Cores() {
        for (auto& m : machines) kernel.remove_runnable(m->cpu.get());
    }
    void start(unsigned i, bool caches) {
        cpu(i).release_reset(0);
        cpu(i).set_cache_enable(caches, caches);
        cpu(i).set_reg(25, kSmcWord);
        cpu(i).set_reg(26, 0x8000);
        cpu(i).set_reg(27, kReplacement);
    }
    core::Cpu& cpu(unsigned i) { return *machines[i]->cpu; }
    Machine& machine(unsigned i) { return *machines[i]; }
    Outcome outcome(unsigned i) {
        core::Cpu& c = cpu(i);
        Outcome o{c.cycles(), c.instret(), c.stall_cycles(), c.icache().misses, c.dcache().misses, c.pc(), {}};
        for (unsigned r = 0; r < 32; ++r) o.regs.push_back(c.reg(r));
        return o;
    }

    sim::Kernel kernel;
    core::CodePool pool;

private:
    std::vector<std::unique_ptr<Machine>> machines;  // last: destroyed before the kernel and pool
};

class SharedCode : public ::testing::TestWithParam<bool> {};  // caches on or off

TEST_P(SharedCode, CoresRunningTheSameCodeShareItsPages) {
    Cores shared(3, 0, true, GetParam());
    Cores apart(3, 0, false, GetParam());
    shared.kernel.run_until(Time::us(10));
    apart.kernel.run_until(Time::us(10));
    EXPECT_EQ(shared.pool.pages(), 2u);
    EXPECT_EQ(apart.pool.pages(), 0u);
    for (unsigned i = 0; i < 3; ++i) {
        EXPECT_EQ(shared.cpu(i).shared_code_pages(), 2u) << "core " << i;
        EXPECT_EQ(shared.cpu(i).private_code_pages(), 0u) << "core " << i;
        EXPECT_EQ(apart.cpu(i).shared_code_pages(), 0u) << "core " << i;
        EXPECT_EQ(apart.cpu(i).private_code_pages(), 2u) << "core " << i;
        ASSERT_GT(shared.cpu(i).reg(13), 100u) << "the subroutine did not run";
        EXPECT_EQ(shared.outcome(i), apart.outcome(i)) << "core " << i;
    }
}

// Core 0 stores a new instruction into its code and runs it; cores 1 and 2 run the
// original. The store gives core 0 its own copy of that page, and only of that one.
TEST_P(SharedCode, SelfModifyingCodeChangesOnlyItsCore) {
    Cores shared(3, 1, true, GetParam());
    Cores apart(3, 1, false, GetParam());
    shared.kernel.run_until(Time::us(40));
    apart.kernel.run_until(Time::us(40));
    const uint32_t loops = shared.cpu(0).reg(10);
    ASSERT_GT(loops, 100u);
    EXPECT_GE(shared.cpu(0).reg(11), 5 * (loops - 1)) << "core 0 did not run its new instruction";
    EXPECT_LE(shared.cpu(1).reg(11), shared.cpu(1).reg(10)) << "core 1 ran core 0's instruction";
    EXPECT_LE(shared.cpu(2).reg(11), shared.cpu(2).reg(10)) << "core 2 ran core 0's instruction";
    // Its page of code and stores stays its own (no copy per store), the other is shared.
    EXPECT_EQ(shared.cpu(0).private_code_pages(), 1u);
    EXPECT_EQ(shared.cpu(0).shared_code_pages(), 1u);
    EXPECT_EQ(shared.cpu(1).shared_code_pages(), 2u);
    EXPECT_EQ(shared.pool.pages(), 2u);
    for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(shared.outcome(i), apart.outcome(i)) << "core " << i;
}

// A host write into one core's code (DMA, the debug back door) with invalidate_code.
TEST_P(SharedCode, InvalidatedCodeChangesOnlyItsCore) {
    auto rewrite = [](Cores& c) {
        c.kernel.run_until(Time::us(5));
        uint32_t word = add(13, 13, 13);
        std::memcpy(&c.machine(0).sram[kSub], &word, 4);
        c.cpu(0).invalidate_code(kSub, 4);
        c.kernel.run_until(Time::us(20));
    };
    Cores shared(2, 0, true, GetParam());
    Cores apart(2, 0, false, GetParam());
    rewrite(shared);
    rewrite(apart);
    EXPECT_EQ(shared.cpu(0).private_code_pages(), 1u);
    EXPECT_EQ(shared.cpu(1).shared_code_pages(), 2u);
    EXPECT_NE(shared.cpu(0).reg(13), shared.cpu(1).reg(13));
    for (unsigned i = 0; i < 2; ++i) EXPECT_EQ(shared.outcome(i), apart.outcome(i)) << "core " << i;
}

// One core is reloaded with other code (the loader: reset held, SRAM written, reset
// released); the other goes on with the original.
TEST_P(SharedCode, ReloadingOneCoreLeavesTheOthers) {
    auto reload = [](Cores& c) {
        c.kernel.run_until(Time::us(5));
        c.cpu(0).hold_reset();
        c.machine(0).load(kSub, {addi(13, 13, -1), xor_(14, 14, 13), jalr(0, 1, 0)});
        c.start(0, GetParam());
        c.kernel.run_until(Time::us(20));
    };
    Cores shared(2, 0, true, GetParam());
    Cores apart(2, 0, false, GetParam());
    reload(shared);
    reload(apart);
    EXPECT_EQ(shared.pool.pages(), 3u) << "the reloaded core's second page is another page";
    EXPECT_EQ(shared.cpu(0).shared_code_pages(), 2u);
    EXPECT_EQ(shared.cpu(1).shared_code_pages(), 2u);
    EXPECT_GT(int32_t(shared.cpu(1).reg(13)), 0);
    EXPECT_LT(int32_t(shared.cpu(0).reg(13)), 0);
    for (unsigned i = 0; i < 2; ++i) EXPECT_EQ(shared.outcome(i), apart.outcome(i)) << "core " << i;
}

// Counts the stops of the core it is attached to, and lets it go on.
struct Listener : core::DebugListener {
    std::vector<uint32_t> stops;
    core::Resume stopped(const core::DebugStop& why) override {
        stops.push_back(why.pc);
        return core::Resume::Continue;
    }
    bool poll() override { return false; }
};

// A breakpoint is core 0's alone: core 1, with a debugger of its own but no
// breakpoint, never stops. One is set before the core entered its page, one after.
TEST_P(SharedCode, ABreakpointStopsOnlyItsCore) {
    Cores c(2, 0, true, GetParam());
    Listener l0, l1;
    c.cpu(0).attach_debugger(&l0);
    c.cpu(1).attach_debugger(&l1);
    ASSERT_TRUE(c.cpu(0).set_breakpoint(kSub, true));
    c.kernel.run_until(Time::us(5));
    ASSERT_TRUE(c.cpu(0).set_breakpoint(0x14, true));
    c.kernel.run_until(Time::us(10));
    EXPECT_GT(l0.stops.size(), 10u);
    EXPECT_EQ(std::count(l0.stops.begin(), l0.stops.end(), 0x14u) + std::count(l0.stops.begin(), l0.stops.end(), kSub),
              std::ptrdiff_t(l0.stops.size()));
    EXPECT_TRUE(l1.stops.empty()) << "core 1 stopped at core 0's breakpoint";
    EXPECT_EQ(c.cpu(0).private_code_pages(), 2u);
    EXPECT_EQ(c.cpu(1).shared_code_pages(), 2u);
    c.cpu(0).attach_debugger(nullptr);
    c.cpu(1).attach_debugger(nullptr);
}

// A store into code a block covers gives the core its own copy of that page, and a loop
// it enters only afterwards is built in that copy. While the loop's words are the shared
// page's bytes, it is the shared page's block, translated there once for every core: as
// many slots translated whether the store came first or never, and with three cores as
// with one; every core to the cycle as with sharing or translation off.
constexpr uint32_t kLoop = 0x100;
const uint32_t kStore = sw(27, 24, 0);
std::vector<uint32_t> store_then_loop() {
    return {
        kStore,                      // 0x00  *x24 = x27: into its own word, the page's data, or outside the code
        jal(0, int32_t(kLoop) - 4),  // 0x04  -> loop, first entered after the store
    };
}
std::vector<uint32_t> loop_body() {
    return {
        addi(10, 10, 1),  // kLoop
        add(13, 13, 10),
        xor_(14, 14, 13),
        lw(15, 26, 0),    // a data load outside the code pages
        add(16, 16, 15),
        sw(10, 26, 4),    // a data store outside the code pages
        jal(0, -24),      // -> kLoop
    };
}
struct StoreThenLoop {
    StoreThenLoop(unsigned cores, uint32_t store_at, bool share, bool translate) {
        for (unsigned i = 0; i < cores; ++i) {
            auto m = std::make_unique<Machine>();
            m->load(0, store_then_loop());
            m->load(kLoop, loop_body());
            m->make_core(kernel, share ? &pool : nullptr);
            m->cpu->set_block_translation(translate);
            m->cpu->release_reset(0);
            m->cpu->set_cache_enable(true, true);
            m->cpu->set_reg(24, store_at);
            m->cpu->set_reg(26, 0x8000);
            m->cpu->set_reg(27, store_at == 0 ? kStore : 0x12345678);  // its own word: itself again
            machines.push_back(std::move(m));
        }
        move_the_horizon(kernel, 20000);
        kernel.run_until(Time::us(10));
    }
    ~StoreThenLoop() {
        for (auto& m : machines) kernel.remove_runnable(m->cpu.get());
    }
    core::Cpu& cpu(unsigned i) { return *machines[i]->cpu; }

    sim::Kernel kernel;
    core::CodePool pool;
    std::vector<std::unique_ptr<Machine>> machines;
};

TEST(SharedCodeBlocks, ALoopFirstRunInACopyOfASharedPageIsTranslatedOnceForEveryCore) {
    constexpr uint32_t kCode = 0x00;        // the store's own word: a copy of the page
    constexpr uint32_t kOutside = 0x9000;   // a data page: no copy
    StoreThenLoop copied(3, kCode, true, true);
    StoreThenLoop kept(3, kOutside, true, true);
    StoreThenLoop alone(1, kCode, true, true);
    StoreThenLoop threaded(3, kCode, true, false);
    StoreThenLoop unshared(3, kCode, false, true);
    ASSERT_GT(copied.cpu(0).reg(10), 100u) << "the loop did not run";
    for (unsigned i = 0; i < 3; ++i) {
        EXPECT_EQ(copied.cpu(i).private_code_pages(), 1u) << "core " << i;
        EXPECT_EQ(kept.cpu(i).private_code_pages(), 0u) << "core " << i;
    }
    EXPECT_GT(kept.pool.translated_slots(), 5u);
    EXPECT_EQ(copied.pool.translated_slots(), kept.pool.translated_slots()) << "the loop in the copies stayed threaded";
    EXPECT_EQ(alone.pool.translated_slots(), copied.pool.translated_slots()) << "translated again for each core";
    EXPECT_EQ(threaded.pool.translated_slots(), 0u);
    auto outcome = [](core::Cpu& c) {
        std::vector<uint64_t> o{c.cycles(), c.instret(), c.stall_cycles(), c.icache().misses, c.dcache().misses, c.pc()};
        for (unsigned r = 0; r < 32; ++r) o.push_back(c.reg(r));
        return o;
    };
    for (unsigned i = 0; i < 3; ++i) {
        EXPECT_EQ(outcome(copied.cpu(i)), outcome(threaded.cpu(i))) << "core " << i;
        EXPECT_EQ(outcome(copied.cpu(i)), outcome(unshared.cpu(i))) << "core " << i;
        EXPECT_EQ(outcome(copied.cpu(i)), outcome(copied.cpu(0))) << "core " << i;
    }
}

// A firmware's globals and pools often begin in the page where its text ends (the
// Portals firmware's do). A store into a word of a shared page that no block covers
// forgets it there, for every core, instead of copying the page: the page stays shared
// and later stores to the word are data stores. A core that then runs such a word runs
// its own bytes, in a copy of its own: core 0 writes addi x11, 5 over the addi x11, 1 of
// the word it calls, the others call their own addi x11, 1 (in blocks, and one
// instruction at a time, where the word is decoded as it runs).
TEST(SharedCodeBlocks, AStoreIntoAWordNoBlockCoversLeavesThePageShared) {
    constexpr uint32_t kData = 0x800;  // a word of the first code page, after its code
    auto run = [](core::CodePool* pool, bool call_data, bool blocks, std::vector<std::unique_ptr<Machine>>& cores, sim::Kernel& kernel) {
        for (unsigned i = 0; i < 3; ++i) {
            auto m = std::make_unique<Machine>();
            m->load(0, {kStore,                                          // 0x00  *x24 = x27
                        call_data ? jal(1, int32_t(kData) - 4) : addi(0, 0, 0),  // 0x04  -> kData, or not
                        addi(10, 10, 1),                                 // 0x08
                        jal(0, -12)});                                   // 0x0c  -> 0x00
            m->load(kData, {kOriginal, jalr(0, 1, 0)});
            m->make_core(kernel, pool);
            m->cpu->set_block_dispatch(blocks);
            m->cpu->release_reset(0);
            m->cpu->set_cache_enable(true, true);
            m->cpu->set_reg(24, i == 0 ? kData : 0x9000);  // core 0 into the page, the others outside
            m->cpu->set_reg(27, kReplacement);
            cores.push_back(std::move(m));
        }
        move_the_horizon(kernel, 20000);
        kernel.run_until(Time::us(10));
        for (auto& m : cores) kernel.remove_runnable(m->cpu.get());
    };
    for (const auto& [call_data, blocks] : {std::pair{false, true}, {true, true}, {true, false}}) {
        SCOPED_TRACE(std::string(call_data ? "calls the word" : "stores only") + (blocks ? ", blocks" : ", one at a time"));
        sim::Kernel k_shared, k_apart;
        core::CodePool pool;
        std::vector<std::unique_ptr<Machine>> shared, apart;
        run(&pool, call_data, blocks, shared, k_shared);
        run(nullptr, call_data, blocks, apart, k_apart);
        ASSERT_GT(shared[0]->cpu->reg(10), 100u) << "the loop did not run";
        EXPECT_EQ(shared[0]->cpu->private_code_pages(), call_data ? 1u : 0u);
        if (call_data) {
            EXPECT_EQ(shared[0]->cpu->reg(11), 5 * shared[0]->cpu->reg(10)) << "core 0 did not run its own word";
            EXPECT_EQ(shared[1]->cpu->reg(11), shared[1]->cpu->reg(10)) << "core 1 ran core 0's word";
        }
        for (unsigned i = 0; i < 3; ++i) {
            EXPECT_EQ(shared[i]->cpu->shared_code_pages() + shared[i]->cpu->private_code_pages(), 1u);
            for (unsigned r = 0; r < 32; ++r) EXPECT_EQ(shared[i]->cpu->reg(r), apart[i]->cpu->reg(r)) << "core " << i << " x" << r;
            EXPECT_EQ(shared[i]->cpu->cycles(), apart[i]->cpu->cycles()) << "core " << i;
            EXPECT_EQ(shared[i]->cpu->dcache().misses, apart[i]->cpu->dcache().misses) << "core " << i;
        }
    }
}

// With NICLAB_PERF_MAP set, each translated block's host code is named in the map file
// perf reads for code in no binary, by the block's firmware address and length; unset,
// nothing is written.
TEST(SharedCodeBlocks, TranslatedBlocksAreNamedForPerfWhenAsked) {
    const std::string map = "/tmp/perf-" + std::to_string(getpid()) + ".map";
    std::remove(map.c_str());
    ::setenv("NICLAB_PERF_MAP", "1", 1);
    uint64_t translated = 0;
    {
        StoreThenLoop asked(1, 0x9000, true, true);
        translated = asked.pool.translated_slots();
    }
    ::unsetenv("NICLAB_PERF_MAP");
    { StoreThenLoop not_asked(1, 0x9000, true, true); }
    std::ifstream in(map);
    std::vector<std::string> names;
    uint64_t start = 0, bytes = 0;
    std::string name;
    while (in >> std::hex >> start >> bytes >> name) {
        EXPECT_GT(start, 0u) << name;
        EXPECT_GT(bytes, 0u) << name;
        names.push_back(name);
    }
    std::remove(map.c_str());
    ASSERT_GT(translated, 0u);
    // The loop at kLoop, 7 instructions, translated once by the run that asked.
    EXPECT_EQ(std::count(names.begin(), names.end(), "fw_00000100_7"), 1) << names.size() << " names";
}

INSTANTIATE_TEST_SUITE_P(Caches, SharedCode, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) { return std::string(p.param ? "On" : "Off"); });

}  // namespace
}  // namespace niclab::test
