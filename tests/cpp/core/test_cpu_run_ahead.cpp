// Running ahead (core::Cpu::set_run_ahead): a core whose run reaches the horizon goes on
// through the instructions that touch only its own state and holds back the first that
// reaches what others share, so it takes fewer runs to the same outcome, to the cycle:
// every device access at the same time, every counter, register and SRAM word the same.
// And where it cannot be exact it does not run ahead (interrupts enabled, a cache off),
// goes no further than its cap, and a model that reaches into what the core keeps in
// its caches while the core is ahead is a logic_error, not a silent difference.
#include <functional>
#include <stdexcept>
#include <string>

#include "cpu_outcome.hpp"

namespace niclab::test {
namespace {

using namespace rv;

constexpr uint32_t kUncachedBase = CoreRig::kUncachedBase;
constexpr uint32_t kData = 0x400, kShared = 0x8000;  // cached data; a word only read uncached

// Each pass: private work (ALU, cached loads and stores, a counter read that ends its
// block and line, so the loop itself enters the next) long enough to cross several
// horizons, then a device store, an uncached load of a word events change, a CSR write,
// a device load of a status register events change (first in its I-cache line); every
// 8th pass a D-cache miss on a fresh line.
std::vector<uint32_t> program() {
    return {
        addi(7, 0, 20),       // 0x00  k = 20
        lw(5, 20, 0),         // 0x04  private: x5 = data[0] ...
        add(5, 5, 7),         // 0x08
        sw(5, 20, 0),         // 0x0c  ... data[0] += k
        add(29, 29, 28),      // 0x10
        addi(7, 7, -1),       // 0x14
        add(13, 13, 5),       // 0x18
        csrr(28, kMcycle),    // 0x1c  a counter: the core's own
        bne(7, 0, -28),       // 0x20  while (--k)
        sw(5, 9, 0),          // 0x24  a device store
        lw(6, 22, 0),         // 0x28  the uncached word events change
        add(30, 30, 6),       // 0x2c
        csrrw(0, 0x340, 5),   // 0x30  a CSR write (mscratch)
        addi(11, 11, 1),      // 0x34
        andi(12, 11, 7),      // 0x38
        add(14, 14, 12),      // 0x3c
        lw(8, 9, int32_t(FakeBus::kStatus - FakeBus::kDeviceBase)),  // 0x40  the status events change
        add(31, 31, 8),       // 0x44
        bne(12, 0, 12),       // 0x48  every 8th pass:
        addi(21, 21, 64),     // 0x4c  a fresh line
        sw(11, 21, 0),        // 0x50  a D-cache miss
        jal(0, -0x54),        // 0x54  again
    };
}

struct AheadRun {
    CpuOutcome outcome;
    uint64_t runs;
};

AheadRun run(bool ahead, bool interrupts_on = false, bool caches_on = true, const core::CoreConfig& cfg = {}) {
    CoreRig rig(cfg);
    rig.load(0, program());
    core::Cpu& cpu = rig.cpu;
    cpu.set_run_ahead(ahead);
    cpu.release_reset(0);
    cpu.set_cache_enable(caches_on, caches_on);
    if (interrupts_on) cpu.write_csr(kMstatus, 8);  // mstatus.MIE, nothing enabled in mie
    cpu.set_reg(9, FakeBus::kDeviceBase);
    cpu.set_reg(20, kData);
    cpu.set_reg(21, kData + 0x800);
    cpu.set_reg(22, kUncachedBase + kShared);
    // Events at irregular times: most only cut runs, some change the shared word.
    for (int64_t k = 1; k < 1500; ++k)
        rig.kernel.schedule_at(Time::ns(41 * k + (k * 17) % 29), [&rig, k] {
            if (k % 7 == 0) rig.store(kShared, uint32_t(k));
            if (k % 5 == 0) rig.bus.status = uint32_t(k);
        });
    rig.kernel.run_until(Time::us(60));
    return AheadRun{outcome_of(cpu, rig.bus, rig.sram), cpu.runs()};
}

TEST(RunAhead, SameOutcomeAsStoppingAtEveryHorizonInFewerRuns) {
    const AheadRun ahead = run(true), plain = run(false);
    ASSERT_GT(plain.outcome.counts.device_loads, 100u) << "the program did not get round";
    ASSERT_GT(plain.outcome.dcache_misses, 10u);
    ASSERT_GT(plain.outcome.regs[30], 0u) << "no change of the shared word was seen";
    ASSERT_GT(plain.outcome.regs[31], 0u) << "no change of the status was seen";
    EXPECT_LT(ahead.runs * 3, plain.runs * 2) << "running ahead did not save runs: the test would pass without it";
    expect_same_outcome(ahead.outcome, plain.outcome);
}

// Translated blocks (core/translate.cpp) load from the uncached view inline, mid-block,
// and hold such a load back when it starts past the horizon, as the threaded form and the
// per-instruction loop do: running ahead through translated code ends the same, to the
// cycle, as stopping at every horizon one instruction at a time.
TEST(RunAhead, TranslatedBlocksHoldBackAnUncachedLoadMidBlock) {
    auto shared_reads = [](bool ahead, bool translated, bool blocks) {
        CoreRig rig;
        rig.load(0, {
            addi(7, 0, 12),   // 0x00  k = 12
            lw(5, 20, 0),     // 0x04  private: data[0] += k ...
            add(5, 5, 7),     // 0x08
            sw(5, 20, 0),     // 0x0c
            addi(7, 7, -1),   // 0x10
            bne(7, 0, -16),   // 0x14  ... while (--k)
            addi(11, 11, 1),  // 0x18
            lw(6, 22, 0),     // 0x1c  mid-block: the uncached word events change
            add(30, 30, 6),   // 0x20
            lh(8, 22, 2),     // 0x24  and its upper half
            add(31, 31, 8),   // 0x28
            jal(0, -0x2c),    // 0x2c  again
        });
        rig.cpu.set_run_ahead(ahead);
        rig.cpu.set_block_dispatch(blocks);
        if (translated) rig.cpu.set_code_pool(&rig.pool);
        rig.cpu.release_reset(0);
        rig.cpu.set_cache_enable(true, true);
        rig.cpu.set_reg(20, kData);
        rig.cpu.set_reg(22, kUncachedBase + kShared);
        for (int64_t k = 1; k < 1500; ++k)
            rig.kernel.schedule_at(Time::ns(37 * k + (k * 13) % 23), [&rig, k] {
                if (k % 3 == 0) rig.store(kShared, uint32_t(k * 0x10001));
            });
        rig.kernel.run_until(Time::us(50));
        if (translated) {
            EXPECT_GT(rig.pool.translated_slots(), 5u) << "nothing was translated";
        }
        return AheadRun{outcome_of(rig.cpu, rig.bus, rig.sram), rig.cpu.runs()};
    };
    const AheadRun translated = shared_reads(true, true, true), threaded = shared_reads(true, false, true);
    const AheadRun single = shared_reads(false, false, false);
    ASSERT_GT(single.outcome.counts.uncached_loads, 300u) << "the program did not get round";
    ASSERT_GT(single.outcome.regs[30], 0u) << "no change of the shared word was seen";
    ASSERT_GT(single.outcome.regs[31], 0u);
    EXPECT_LT(translated.runs * 2, single.runs) << "it did not run ahead: nothing was held back";
    expect_same_outcome(threaded.outcome, single.outcome);
    expect_same_outcome(translated.outcome, single.outcome);
}

// With an I-cache of one line, every line of the loop misses at every pass: a fill that
// starts short of the horizon and ends past it, before the device store that begins its
// line, is one the loop's check let through, so the store goes ahead as it would there.
TEST(RunAhead, ALineFilledAcrossTheHorizonRunsItsFirstInstruction) {
    core::CoreConfig cfg;
    cfg.icache = core::CacheConfig{32, 32, 1};
    const AheadRun ahead = run(true, false, true, cfg), plain = run(false, false, true, cfg);
    ASSERT_GT(plain.outcome.icache_misses, 200u);
    EXPECT_LT(ahead.runs, plain.runs);
    expect_same_outcome(ahead.outcome, plain.outcome);
}

// A core with its caches on, running ahead or not, `program` at 0 and `more` at 0x1000, x9
// the device's base, to 60 us with the events `events` schedules: how it ended.
struct Alone {
    CpuOutcome outcome;
    uint64_t runs, skipped;
};
Alone alone(bool ahead, const std::vector<uint32_t>& program, const std::vector<uint32_t>& more,
            const std::function<void(CoreRig&)>& events) {
    CoreRig rig;
    rig.load(0, program);
    rig.load(0x1000, more);
    rig.cpu.set_run_ahead(ahead);
    rig.cpu.release_reset(0);
    rig.cpu.set_cache_enable(true, true);
    rig.cpu.set_reg(9, FakeBus::kDeviceBase);
    events(rig);
    rig.kernel.run_until(Time::us(60));
    return Alone{outcome_of(rig.cpu, rig.bus, rig.sram), rig.cpu.runs(), rig.cpu.spin_passes_skipped()};
}

// Calls into another code page and returns from it, fetches that hit the I-cache, run
// ahead as any private instruction: a loop of nothing else takes a handful of runs.
TEST(RunAhead, CallsIntoAnotherCodePageRunAhead) {
    auto calls = [](bool ahead) {
        return alone(ahead, {addi(5, 5, 1), jal(1, 0x1000 - 4), add(8, 8, 7), jal(0, -12)},
                     {addi(6, 6, 1), add(7, 7, 6), jalr(0, 1, 0)}, [](CoreRig& rig) {
                         for (int64_t k = 1; k < 1500; ++k) rig.kernel.schedule_at(Time::ns(41 * k), [] {});
                     });
    };
    const Alone ahead = calls(true), plain = calls(false);
    ASSERT_GT(plain.outcome.regs[6], 1000u) << "the function was called too seldom";
    EXPECT_GT(plain.runs, 1000u);
    EXPECT_LT(ahead.runs * 50, plain.runs);
    expect_same_outcome(ahead.outcome, plain.outcome);
}

// A polling loop on a status register the bus calls pure is fast-forwarded (spin.cpp) only
// to the horizon: its passes past it read what events change, and hold back.
TEST(RunAhead, APollingLoopIsSkippedOnlyToTheHorizon) {
    auto poll = [](bool ahead) {
        return alone(ahead,
                     {addi(6, 6, 1), lw(5, 9, int32_t(FakeBus::kStatus - FakeBus::kDeviceBase)), beq(5, 0, -4),
                      addi(7, 7, 1), sw(0, 9, 0), addi(6, 6, 1), jal(0, -24)},
                     {}, [](CoreRig& rig) {
                         for (int64_t k = 1; k < 400; ++k)
                             rig.kernel.schedule_at(Time::ns(131 * k + (k * 53) % 97),
                                                    [&rig, k] { rig.bus.status = uint32_t(k % 3 == 0); });
                     });
    };
    const Alone ahead = poll(true), plain = poll(false);
    ASSERT_GT(plain.outcome.regs[7], 50u) << "the status was seen set too seldom";
    EXPECT_GT(ahead.skipped, 300u);
    expect_same_outcome(ahead.outcome, plain.outcome);
}

// With interrupts deliverable, an interrupt raised between the horizon and where the core
// would be would come too late; with a cache off, fetches and data past the horizon are
// not the core's alone. Then every run stops at the horizon, as without running ahead.
TEST(RunAhead, InterruptsEnabledOrACacheOffStopAtTheHorizon) {
    for (const auto& [interrupts, caches] : {std::pair{true, true}, std::pair{false, false}}) {
        SCOPED_TRACE(interrupts ? "interrupts enabled" : "caches off");
        const AheadRun ahead = run(true, interrupts, caches), plain = run(false, interrupts, caches);
        EXPECT_EQ(ahead.runs, plain.runs);
        expect_same_outcome(ahead.outcome, plain.outcome);
    }
}

// A core in a private loop (here `j .`) runs at most Cpu::kRunAheadCycles past its
// horizon before it returns to the kernel, so a stop or a cancel still reaches it.
TEST(RunAhead, APrivateLoopGoesNoFurtherThanTheCap) {
    CoreRig rig;
    rig.load(0, {addi(5, 5, 1), jal(0, 0)});
    core::Cpu& cpu = rig.cpu;
    cpu.set_run_ahead(true);
    cpu.release_reset(0);
    cpu.set_cache_enable(true, true);
    Time furthest{};
    for (int64_t k = 1; k < 400; ++k)
        rig.kernel.schedule_at(Time::ns(250 * k), [&] { furthest = std::max(furthest, cpu.local_time() - rig.kernel.now()); });
    rig.kernel.run_until(Time::us(100));
    const Time cap = cpu.clock().cycles(core::Cpu::kRunAheadCycles);
    EXPECT_GT(furthest * 2, cap) << "it did not run ahead";
    EXPECT_LE(furthest, cap + cpu.clock().cycles(8));
}

// Something outside the core reading or writing SRAM it has reached through its caches,
// at a time it has run past: a logic_error naming the offset. Outside those lines, or
// without running ahead, nothing.
TEST(RunAhead, AnOutsideAccessToWhatTheCoreCachedWhileAheadIsALogicError) {
    auto touch = [](bool ahead, uint32_t offset) {
        CoreRig rig;
        rig.load(0, {lw(5, 20, 0), addi(5, 5, 1), sw(5, 20, 0), jal(0, -12)});
        rig.cpu.set_run_ahead(ahead);
        rig.cpu.release_reset(0);
        rig.cpu.set_cache_enable(true, true);
        rig.cpu.set_reg(20, kData);
        for (int64_t k = 1; k < 50; ++k)
            rig.kernel.schedule_at(Time::ns(97 * k), [&rig, offset] { rig.cpu.check_outside_access(offset, 4, true); });
        rig.kernel.run_until(Time::us(10));
    };
    try {
        touch(true, kData);
        ADD_FAILURE() << "no logic_error";
    } catch (const std::logic_error& e) {
        EXPECT_NE(std::string(e.what()).find("SRAM offset 0x400 (4 bytes) written"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("\"run_ahead\": false"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(touch(true, kShared));
    EXPECT_NO_THROW(touch(false, kData));
}

}  // namespace
}  // namespace niclab::test
