// Polling fast-forward (cpp/src/core/spin.cpp) must be invisible: a program that
// spins on SRAM flags, written by events at irregular times, gives the same cycles,
// instructions, registers, memory, cache statistics and device access times with the
// skipping on as with it off - and with it on, it really skipped passes.
//
// The program's loops cover what may and may not be skipped: a flag in the cached
// view, a masked flag in the uncached view, a loop that counts its passes (never
// skipped: a register carries from pass to pass), a loop that also reads a device
// register (never skipped: a device load synchronizes the kernel), and a `j .` left
// only by the timer interrupt, whose handler logs where and at which mcycle it came.
// Events empty the I-cache now and then, so a pass of the first loop (over two lines)
// that refills a line costs more than the passes after it. Halfway through, an event
// rewrites an instruction of a skippable loop into one that counts, so a skip decided
// on the old code would leave another count.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "cpu_outcome.hpp"

namespace niclab::test {
namespace {

using namespace rv;

constexpr uint32_t kUncachedBase = CoreRig::kUncachedBase;
constexpr uint32_t kIsr = 0x200, kData = 0x400, kLog = 0x1000, kIrqLog = 0x3000;
constexpr uint32_t kAckOffset = 8;    // a device store here acknowledges the timer interrupt
constexpr uint32_t kDeadSpin = 0x68;  // the `j .`
constexpr uint32_t kRewritten = 0x1c; // the instruction the event rewrites: not in its branch's block
const uint32_t kCounting = addi(15, 15, 1);

std::vector<uint32_t> program() {
    return {
        addi(5, 0, int32_t(kIsr)),           // 0x00
        csrrw(0, kMtvec, 5),                 // 0x04
        addi(5, 0, int32_t(core::kMipMTIP)), // 0x08
        csrrw(0, kMie, 5),                   // 0x0c
        addi(5, 0, 8),                       // 0x10  mstatus.MIE
        csrrs(0, kMstatus, 5),               // 0x14
        lw(5, 20, 0),                        // 0x18  loop: while (flag1 == seen), over two I-cache lines
        addi(15, 0, 1),                      // 0x1c  (rewritten into a counter halfway)
        beq(5, 6, -8),                       // 0x20
        addi(6, 5, 0),                       // 0x24  seen = flag1
        sw(5, 21, 0),                        // 0x28  log it and when
        csrr(28, kMcycle),                   // 0x2c
        sw(28, 21, 4),                       // 0x30
        addi(21, 21, 8),                     // 0x34
        lw(7, 22, 4),                        // 0x38  while (!(flag2 & 1)), uncached view
        andi(7, 7, 1),                       // 0x3c
        beq(7, 0, -8),                       // 0x40
        sw(0, 20, 4),                        // 0x44  flag2 = 0
        lw(10, 20, 8),                       // 0x48  while (!flag3) ++x11: counts
        addi(11, 11, 1),                     // 0x4c
        beq(10, 0, -8),                      // 0x50
        sw(0, 20, 8),                        // 0x54  flag3 = 0
        lw(12, 9, 0),                        // 0x58  while (!flag4) with a device load
        lw(13, 20, 12),                      // 0x5c
        beq(13, 0, -8),                      // 0x60
        sw(0, 20, 12),                       // 0x64  flag4 = 0
        jal(0, 0),                           // 0x68  j . (the timer's handler moves past it)
        jal(0, 0x18 - 0x6c),                 // 0x6c  -> loop
    };
}

std::vector<uint32_t> interrupt_handler() {
    return {
        csrr(28, kMepc),        // log where and when it was taken
        sw(28, 23, 0),
        csrr(29, kMcycle),
        sw(29, 23, 4),
        addi(23, 23, 8),
        sw(0, 9, int32_t(kAckOffset)),
        bne(28, 24, 12),        // taken at the `j .`: return past it
        addi(28, 28, 4),
        csrrw(0, kMepc, 28),
        mret(),
    };
}

struct SpinRun {
    CpuOutcome outcome;
    uint64_t skipped;
};

// Flags set by events at irregular times, each flag on its own beat; the timer
// interrupt re-armed at an irregular time after each acknowledgement.
SpinRun run(const CoreVariant& v, bool skip) {
    CoreRig rig;
    rig.load(0, program());
    rig.load(kIsr, interrupt_handler());
    core::Cpu& cpu = rig.cpu;
    cpu.set_spin_skip(skip);
    cpu.release_reset(v.entry);
    cpu.set_cache_enable(v.caches, v.caches);
    cpu.set_reg(9, FakeBus::kDeviceBase);
    cpu.set_reg(20, kData);
    cpu.set_reg(22, kUncachedBase + kData);
    cpu.set_reg(21, kLog);
    cpu.set_reg(23, kIrqLog);
    cpu.set_reg(24, v.entry + kDeadSpin);

    sim::Kernel& kernel = rig.kernel;
    for (uint32_t k = 1; k < 60; ++k) {
        kernel.schedule_at(Time::ns(1100 * k + (k * 389) % 700), [&, k] { rig.store(kData, k); });
        kernel.schedule_at(Time::ns(1300 * k + (k * 211) % 900), [&] { rig.store(kData + 4, rig.word(kData + 4) | 1); });
        kernel.schedule_at(Time::ns(1200 * k + (k * 157) % 500), [&] { rig.store(kData + 8, 1); });
        kernel.schedule_at(Time::ns(1250 * k + (k * 433) % 600), [&] { rig.store(kData + 12, 1); });
    }
    // The I-cache emptied now and then (as the NIC's control block may): a pass that
    // refills a line costs more than the passes after it.
    for (uint32_t k = 1; k < 50; ++k) kernel.schedule_at(Time::ns(1700 * k + (k * 97) % 800), [&] { cpu.invalidate_icache(); });
    kernel.schedule_at(Time::ns(40'013), [&] {
        rig.store(kRewritten, kCounting);
        cpu.invalidate_code(kRewritten, 4);
    });
    rig.timer_rearmed_on_ack(Time::ns(700), FakeBus::kDeviceBase + kAckOffset,
                             [](uint32_t acks) { return Time::ns(900 + (acks * 271) % 1300); });
    kernel.run_until(Time::us(80));
    return SpinRun{outcome_of(cpu, rig.bus, rig.sram), cpu.spin_passes_skipped()};
}

class SpinSkip : public ::testing::TestWithParam<CoreVariant> {};

TEST_P(SpinSkip, SameResultsAsRunningEveryPass) {
    const SpinRun skipping = run(GetParam(), true);
    const SpinRun plain = run(GetParam(), false);

    // The program did what it is for: it saw the flags, the timer took it out of its
    // dead spin, the counting loops counted, and the rewritten loop counted too.
    const CpuOutcome& o = plain.outcome;
    ASSERT_GT(o.regs[6], 40u) << "flag1 was seen fewer times than it changed";
    ASSERT_GT(o.counts.interrupts, 20u);
    ASSERT_GT(o.regs[11], 20u) << "the counting loop did not run";
    ASSERT_GT(o.regs[15], 10u) << "the rewritten loop did not run";
    ASSERT_GT(o.counts.device_loads, 20u);
    EXPECT_EQ(plain.skipped, 0u);
    EXPECT_GT(skipping.skipped, 1000u) << "nothing was skipped: the test would pass without the feature";

    expect_same_outcome(skipping.outcome, plain.outcome);
}

// A core with caches on, alone with a small loop at `entry` spinning on the word at
// kData, until `end`; `events` adds the kernel's events.
SpinRun run_alone(bool skip, uint32_t entry, const std::vector<uint32_t>& loop, const core::CoreConfig& cfg, Time end,
                  const std::function<void(CoreRig&)>& events) {
    CoreRig rig(cfg);
    rig.load(entry, loop);
    rig.cpu.set_spin_skip(skip);
    rig.cpu.release_reset(entry);
    rig.cpu.set_cache_enable(true, true);
    rig.cpu.set_reg(20, kData);
    rig.cpu.set_reg(9, FakeBus::kDeviceBase);
    events(rig);
    rig.kernel.run_until(end);
    return SpinRun{outcome_of(rig.cpu, rig.bus, rig.sram), rig.cpu.spin_passes_skipped()};
}

// The watchdog (no store, wfi or trap for watchdog_cycles) stops a core spinning on a
// flag nobody sets at the same cycle whether the passes ran or were skipped.
TEST(SpinSkipAlone, TheWatchdogFiresAtTheSameCycle) {
    core::CoreConfig cfg;
    cfg.watchdog_cycles = 100'003;
    auto run = [&](bool skip) {
        Time stopped{};
        SpinRun r = run_alone(skip, 0, {lw(5, 20, 0), andi(5, 5, 4), beq(5, 0, -8)}, cfg, Time::ms(1),
                              [&](CoreRig& m) {
                                  for (int64_t ns = 5; ns < 300'000; ns += 7919) m.kernel.schedule_at(Time::ns(ns), [] {});
                                  m.kernel.schedule_at(Time::us(900), [&] { stopped = m.cpu.stop_time(); });
                              });
        EXPECT_LT(r.outcome.pc, 12u) << "it left the loop";
        return std::make_pair(r, stopped);
    };
    const auto [skipping, skipping_stop] = run(true);
    const auto [plain, plain_stop] = run(false);
    EXPECT_GT(plain_stop, Time{}) << "the watchdog did not fire";
    EXPECT_GT(skipping.skipped, 10'000u);
    EXPECT_EQ(skipping_stop, plain_stop);
    expect_same_outcome(skipping.outcome, plain.outcome);
}

// A pass that refills an I-cache line costs more than the passes after it, so it is
// not one to repeat. The loop spans two lines; events empty the I-cache at irregular
// times, so a burst often starts with the core at the branch, in the second line, and
// its first whole pass refills the first.
TEST(SpinSkipAlone, APassThatRefillsALineIsNotRepeated) {
    auto run = [](bool skip) {
        return run_alone(skip, 0x1c, {lw(5, 20, 0), beq(5, 0, -4)}, core::CoreConfig{}, Time::us(60),
                         [](CoreRig& m) {
                             for (int64_t k = 1; k < 500; ++k)
                                 m.kernel.schedule_at(Time::ns(97 * k + (k * 37) % 61), [&] { m.cpu.invalidate_icache(); });
                             m.kernel.schedule_at(Time::us(55), [&] { m.sram[kData] = 1; });
                         });
    };
    const SpinRun skipping = run(true), plain = run(false);
    EXPECT_EQ(plain.outcome.pc, 0x24u) << "the loop did not end when the flag was set";
    EXPECT_GT(plain.outcome.icache_misses, 400u);
    EXPECT_GT(skipping.skipped, 1000u);
    expect_same_outcome(skipping.outcome, plain.outcome);
}

// A loop on a device register the bus calls pure (a status register: no side effect,
// a fixed latency) is skipped like one on SRAM, each skipped pass counted as a device
// load. A load of another register (logged, so not pure) in the same loop keeps every pass.
TEST(SpinSkipAlone, APureDeviceRegisterIsSkippedToo) {
    auto run = [](bool skip, bool impure_too) {
        std::vector<uint32_t> loop = {lw(5, 9, int32_t(FakeBus::kStatus - FakeBus::kDeviceBase)), beq(5, 0, -4)};
        if (impure_too) loop = {lw(6, 9, 0), lw(5, 9, int32_t(FakeBus::kStatus - FakeBus::kDeviceBase)), beq(5, 0, -8)};
        return run_alone(skip, 0, loop, core::CoreConfig{}, Time::us(60), [&](CoreRig& m) {
            for (int64_t k = 1; k < 200; ++k) m.kernel.schedule_at(Time::ns(250 * k + (k * 71) % 113), [] {});
            m.kernel.schedule_at(Time::us(50), [&] { m.bus.status = 1; });
        });
    };
    for (bool impure_too : {false, true}) {
        const SpinRun skipping = run(true, impure_too), plain = run(false, impure_too);
        EXPECT_EQ(plain.outcome.pc, 4u * (impure_too ? 3 : 2)) << "the loop did not end when the status changed";
        EXPECT_GT(plain.outcome.counts.device_loads, 1000u);
        if (impure_too) EXPECT_EQ(skipping.skipped, 0u);
        else EXPECT_GT(skipping.skipped, 1000u);
        expect_same_outcome(skipping.outcome, plain.outcome);
    }
}

INSTANTIATE_TEST_SUITE_P(Views, SpinSkip, core_variants(kUncachedBase), variant_name);

}  // namespace
}  // namespace niclab::test
