// Block dispatch (cpp/src/core/block.cpp) must be invisible: the same program, run
// with blocks, with blocks translated to host code (core/translate.cpp: the core's code
// from a pool) and with every instruction on the per-instruction path, must give the
// same cycles, instructions, registers, memory, cache statistics and device access
// times. The program has what can go wrong inside a block: SRAM loads and stores,
// branches, device loads and stores (which sync the kernel and move the horizon),
// timer interrupts raised at irregular times (so the horizon falls everywhere in the
// blocks), and self-modifying code inside a block. A block that charged a cycle too
// many, or ran past the horizon, would take an interrupt at another mepc or mcycle,
// which the interrupt handler logs to SRAM.
#include <functional>
#include <initializer_list>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "cpu_outcome.hpp"

namespace niclab::test {
namespace {

using namespace rv;

constexpr uint32_t kUncachedBase = CoreRig::kUncachedBase;
constexpr uint32_t kIsr = 0x200, kData = 0x400, kLog = 0x1000, kSmcWord = 0x6c;
constexpr uint32_t kAckOffset = 8;  // a device store here acknowledges the timer interrupt
const uint32_t kSmcA = addi(1, 1, 1), kSmcB = addi(1, 1, 3);

// 0x00-0x1c: x9 points at the device, traps go to kIsr, the timer interrupt is on.
std::vector<uint32_t> with_prologue(std::initializer_list<uint32_t> loop) {
    std::vector<uint32_t> words = {
        lui(9, FakeBus::kDeviceBase >> 12),  // 0x00
        addi(5, 0, int32_t(kIsr)),           // 0x04
        csrrw(0, kMtvec, 5),                 // 0x08
        addi(5, 0, int32_t(core::kMipMTIP)), // 0x0c
        csrrw(0, kMie, 5),                   // 0x10
        addi(5, 0, 8),                       // 0x14  mstatus.MIE
        csrrs(0, kMstatus, 5),               // 0x18
        nop(),                               // 0x1c
    };
    words.insert(words.end(), loop);
    return words;
}

std::vector<uint32_t> main_loop() {
    return with_prologue({
        addi(10, 10, 1),                     // 0x20  loop:
        add(11, 11, 10),                     // 0x24
        xor_(12, 12, 11),                    // 0x28
        sw(12, 20, 0),                       // 0x2c  SRAM store
        lw(13, 20, 0),                       // 0x30  SRAM load
        add(14, 14, 13),                     // 0x34
        andi(15, 10, 63),                    // 0x38
        slli(15, 15, 2),                     // 0x3c
        add(16, 20, 15),                     // 0x40
        sw(10, 16, 4),                       // 0x44  a store that walks over 256 bytes
        lw(17, 9, 0),                        // 0x48  device load
        add(18, 18, 17),                     // 0x4c
        andi(19, 10, 7),                     // 0x50
        bne(19, 0, 0x14),                    // 0x54  -> 0x68, 7 passes of 8
        sw(10, 9, 0),                        // 0x58  device store
        lw(26, 25, 0),                       // 0x5c  the word at kSmcWord ...
        xor_(26, 26, 27),                    // 0x60
        sw(26, 25, 0),                       // 0x64  ... toggled between kSmcA and kSmcB
        add(2, 2, 1),                        // 0x68  a block of six, kSmcWord in it
        kSmcA,                               // 0x6c
        add(2, 2, 1),                        // 0x70
        div(3, 2, 10),                       // 0x74
        addi(4, 4, 1),                       // 0x78
        jal(0, 0x20 - 0x7c),                 // 0x7c  -> loop
    });
}

std::vector<uint32_t> interrupt_handler() {
    return {
        csrr(28, kMepc),           // log where and when it was taken
        sw(28, 21, 0),
        csrr(28, kMcycle),
        sw(28, 21, 4),
        addi(21, 21, 8),
        sw(0, 9, int32_t(kAckOffset)),
        mret(),
    };
}

enum class Dispatch { PerInstruction, Blocks, Translated };

// The program at 0 and its trap handler at kIsr, the core started as the variant says.
core::Cpu& start(CoreRig& rig, const CoreVariant& v, Dispatch how, const std::vector<uint32_t>& program,
                 const std::vector<uint32_t>& handler) {
    rig.load(0, program);
    rig.load(kIsr, handler);
    rig.cpu.set_block_dispatch(how != Dispatch::PerInstruction);
    if (how == Dispatch::Translated) rig.cpu.set_code_pool(&rig.pool);
    rig.cpu.release_reset(v.entry);
    rig.cpu.set_cache_enable(v.caches, v.caches);
    return rig.cpu;
}

// The run's outcome; a translated run must have run host code.
CpuOutcome finish(CoreRig& rig, Dispatch how) {
    if (how == Dispatch::Translated) {
        EXPECT_GT(rig.pool.translated_slots(), 10u) << "nothing was translated";
    }
    return outcome_of(rig.cpu, rig.bus, rig.sram);
}

// The run: the timer's interrupts re-armed on each acknowledgement (`next` after it),
// empty events every `step` ns from `first_ns` that move the horizon besides, 40 us of it.
CpuOutcome drive(CoreRig& rig, Dispatch how, Time first_irq, std::function<Time(uint32_t)> next, int64_t first_ns,
                 int64_t step) {
    rig.timer_rearmed_on_ack(first_irq, FakeBus::kDeviceBase + kAckOffset, std::move(next));
    for (int64_t ns = first_ns; ns < 40000; ns += step) rig.kernel.schedule_at(Time::ns(ns), [] {});
    rig.kernel.run_until(Time::us(40));
    return finish(rig, how);
}

// One machine: a core, a fake bus whose interrupt acknowledgement re-arms the timer
// interrupt at an irregular later time, and events that move the horizon besides.
CpuOutcome run(const CoreVariant& v, Dispatch how) {
    CoreRig rig;
    core::Cpu& cpu = start(rig, v, how, main_loop(), interrupt_handler());
    cpu.set_reg(20, kData);
    cpu.set_reg(21, kLog);
    cpu.set_reg(25, kSmcWord);
    cpu.set_reg(27, kSmcA ^ kSmcB);
    return drive(rig, how, Time::ns(150), [](uint32_t acks) { return Time::ns(90 + (acks * 53) % 311); }, 7, 41);
}

// The program run per instruction, in blocks and translated: the last two must match the
// first to the cycle and the counter (the interrupt log, its mepc and mcycle, the data and
// any modified code too). The per-instruction run's outcome, for what the program must have done.
CpuOutcome same_every_way(const std::function<CpuOutcome(Dispatch)>& run) {
    const CpuOutcome single = run(Dispatch::PerInstruction);
    expect_same_outcome(run(Dispatch::Blocks), single);
    expect_same_outcome(run(Dispatch::Translated), single);
    return single;
}

class BlockDispatch : public ::testing::TestWithParam<CoreVariant> {};

TEST_P(BlockDispatch, SameResultsAsThePerInstructionPath) {
    const CpuOutcome single = same_every_way([&](Dispatch how) { return run(GetParam(), how); });

    // The program did what it is for.
    ASSERT_GT(single.counts.interrupts, 50u);
    ASSERT_GT(single.counts.device_loads, 100u);
    ASSERT_GT(single.counts.device_stores, 20u);
    ASSERT_GT(single.regs[4], 100u) << "the loop did not run";
    ASSERT_GT(single.regs[1], single.regs[4]) << "the modified instruction never ran";
}

INSTANTIATE_TEST_SUITE_P(Views, BlockDispatch, core_variants(kUncachedBase), variant_name);

// Loads and stores inside a block, in the middle of blocks that run on into the next
// fetch line: their fast path goes on through the block, every other path leaves it
// there. The I-cache is small, so after an interrupt a block finds the next line gone
// and ends before it.
// The D-cache is small, so the loop's walk over 8 KB misses it and writes dirty lines
// back; besides, loads from the uncached view, a store into the code page (a word no
// decode covers, as a firmware's globals after its text: the block goes on), a load that
// is misaligned once in four passes (a trap the handler steps over), and a device
// load, all mid-block. With the caches off, every SRAM load inside a block costs its
// read latency, which the block checks against the horizon before going on.
constexpr uint32_t kWalk = 0x4000, kCodeData = 0x1f0;

std::vector<uint32_t> memory_loop() {
    return with_prologue({
        addi(10, 10, 1),                     // 0x20  loop
        slli(15, 10, 5),                     // 0x24  a line further each pass
        and_(15, 15, 22),                    // 0x28  ... within 8 KB
        add(16, 20, 15),                     // 0x2c
        lw(17, 16, 0),                       // 0x30  misses when the line was evicted
        sw(10, 16, 4),                       // 0x34  a hit that dirties the line
        lbu(18, 23, 3),                      // 0x38  the uncached view: leaves the block
        add(19, 19, 17),                     // 0x3c
        add(19, 19, 18),                     // 0x40  the next line
        sh(10, 24, 0),                       // 0x44  into the code page, a word never decoded: on through the block
        lh(26, 24, 0),                       // 0x48
        andi(27, 10, 3),                     // 0x4c
        sltiu(27, 27, 1),                    // 0x50  1 once in 4 passes
        add(7, 24, 27),                      // 0x54
        lw(29, 7, 0),                        // 0x58  then misaligned: a trap
        add(4, 4, 29),                       // 0x5c
        addi(4, 4, 1),                       // 0x60  the last line
        lw(31, 9, 0),                        // 0x64  device load: leaves the block
        add(18, 18, 31),                     // 0x68
        jal(0, 0x20 - 0x6c),                 // 0x6c  -> loop
    });
}

// A misaligned load is stepped over, its pc logged; the timer's interrupts go on to
// interrupt_handler() at 0x20.
std::vector<uint32_t> trap_handler() {
    std::vector<uint32_t> words = {
        csrr(30, kMcause),    // 0x00
        blt(30, 0, 0x1c),     // 0x04  an interrupt -> 0x20
        csrr(30, kMepc),      // 0x08
        addi(30, 30, 4),      // 0x0c
        csrrw(0, kMepc, 30),  // 0x10
        sw(30, 21, 0),        // 0x14
        addi(21, 21, 4),      // 0x18
        mret(),               // 0x1c
    };
    const std::vector<uint32_t> timer = interrupt_handler();
    words.insert(words.end(), timer.begin(), timer.end());
    return words;
}

CpuOutcome run_memory(const CoreVariant& v, Dispatch how) {
    core::CoreConfig cfg;
    cfg.dcache.size_bytes = 2048;  // 64 lines: the walk over 8 KB keeps missing
    cfg.dcache.ways = 2;
    cfg.icache.size_bytes = 128;   // 4 lines: the loop's three fit until the handler's evict them
    cfg.icache.ways = 2;
    CoreRig rig(cfg);
    core::Cpu& cpu = start(rig, v, how, memory_loop(), trap_handler());
    cpu.set_reg(20, kWalk);
    cpu.set_reg(21, kLog);
    cpu.set_reg(22, 0x1fe0);
    cpu.set_reg(23, kUncachedBase + kWalk);
    cpu.set_reg(24, kCodeData);
    return drive(rig, how, Time::ns(130), [](uint32_t acks) { return Time::ns(70 + (acks * 61) % 293); }, 5, 37);
}

TEST_P(BlockDispatch, LoadsAndStoresInsideBlocksGiveTheSameResults) {
    const CpuOutcome single = same_every_way([&](Dispatch how) { return run_memory(GetParam(), how); });

    ASSERT_GT(single.regs[4], 200u) << "the loop did not run";
    ASSERT_GT(single.counts.interrupts, 50u);
    ASSERT_GT(single.counts.exceptions, 10u) << "no misaligned load trapped";
    ASSERT_GT(single.counts.uncached_loads, 100u);
    ASSERT_GT(single.counts.device_loads, 100u);
    if (GetParam().caches && GetParam().entry == 0) {  // fetched through the I-cache
        ASSERT_GT(single.icache_misses, 50u);
    }
    if (GetParam().caches) {
        ASSERT_GT(single.dcache_misses, 200u);
        ASSERT_GT(single.dcache_writebacks, 100u);
    }
}

// A run of loads and stores off one base register, as a function saves and restores its
// registers off sp: translated, it is checked once and then each access goes straight to
// its D-cache hit test. Each pass takes its base from a table, so the checks fail every
// way they can - a base aligned in cached SRAM, misaligned (its word accesses trap), in
// the uncached view, in the code page (words never decoded), running off the SRAM's end
// (an access fault mid-run), on a device, across two D-cache lines - while a walk over
// 8 KB evicts the run's lines, so its accesses miss mid-run too; the run ends with a load
// that replaces its base. A second run stores into the next block's decoded code, which
// must then run as stored (its two words toggle between two instructions).
constexpr uint32_t kRunTable = 0xb000, kRunLog = 0x6000;

std::vector<uint32_t> base_run_loop() {
    return with_prologue({
        addi(10, 10, 1),                     // 0x20  loop
        andi(15, 10, 7),                     // 0x24
        slli(15, 15, 2),                     // 0x28
        add(15, 15, 25),                     // 0x2c
        lw(16, 15, 0),                       // 0x30  this pass's base
        sw(10, 16, 0),                       // 0x34  the run ...
        sw(11, 16, 4),                       // 0x38
        addi(11, 11, 3),                     // 0x3c
        sh(10, 16, 8),                       // 0x40
        lw(12, 16, 4),                       // 0x44
        add(13, 13, 12),                     // 0x48
        lbu(14, 16, 9),                      // 0x4c
        sw(13, 16, 12),                      // 0x50
        lw(16, 16, 0),                       // 0x54  ... ends replacing its base
        add(3, 3, 16),                       // 0x58
        add(3, 3, 14),                       // 0x5c
        slli(17, 10, 5),                     // 0x60  the walk
        and_(17, 17, 22),                    // 0x64
        add(17, 17, 20),                     // 0x68
        lw(18, 17, 0),                       // 0x6c
        add(19, 19, 18),                     // 0x70
        addi(4, 4, 1),                       // 0x74
        xor_(26, 26, 27),                    // 0x78
        sw(26, 24, 0),                       // 0x7c  a run into code ...
        sw(26, 24, 4),                       // 0x80
        jal(0, 4),                           // 0x84
        kSmcA,                               // 0x88  ... this block's
        kSmcA,                               // 0x8c
        jal(0, 0x20 - 0x90),                 // 0x90  -> loop
    });
}

CpuOutcome run_base_runs(const CoreVariant& v, Dispatch how) {
    core::CoreConfig cfg;
    cfg.dcache.size_bytes = 2048;
    cfg.dcache.ways = 2;
    CoreRig rig(cfg);
    const std::vector<uint32_t> bases = {
        kData + 0x40,                            // aligned, cached
        kData + 0x42,                            // misaligned for its words
        kUncachedBase + kData + 0x80,            // the uncached view
        kCodeData,                               // the code page
        CoreRig::kSramSize - 8,                  // off the SRAM's end from its third access
        FakeBus::kDeviceBase + 0x40,             // a device
        kData + 0x7c,                            // across two lines
        kWalk + 0x100,                           // where the walk evicts it
    };
    rig.load(kRunTable, bases);
    core::Cpu& cpu = start(rig, v, how, base_run_loop(), trap_handler());
    cpu.set_reg(20, kWalk);
    cpu.set_reg(21, kRunLog);
    cpu.set_reg(22, 0x1fe0);
    cpu.set_reg(24, 0x88);
    cpu.set_reg(25, kRunTable);
    cpu.set_reg(26, kSmcA);
    cpu.set_reg(27, kSmcA ^ kSmcB);
    return drive(rig, how, Time::ns(120), [](uint32_t acks) { return Time::ns(80 + (acks * 59) % 301); }, 4, 43);
}

TEST_P(BlockDispatch, RunsOffOneBaseRegisterGiveTheSameResults) {
    const CpuOutcome single = same_every_way([&](Dispatch how) { return run_base_runs(GetParam(), how); });

    ASSERT_GT(single.regs[4], 50u) << "the loop did not run";
    ASSERT_GT(single.counts.interrupts, 50u);
    ASSERT_GT(single.counts.exceptions, 100u) << "no access trapped";
    ASSERT_GT(single.counts.uncached_loads, 20u);
    ASSERT_GT(single.counts.device_loads, 20u);
    ASSERT_GT(single.regs[1], 2 * single.regs[4]) << "the stored instructions never ran";
    if (GetParam().caches) {
        ASSERT_GT(single.dcache_misses, 200u);
    }
}

// Instructions that read what the one before them wrote: translated code takes such a
// register from the host register it is still in (eax or ecx) instead of loading it back.
// Each way it can be at hand is here - a load's value, an ALU result as either operand of a
// commutative operation, a compare's result as a shift count, an address, a branch's
// operand - and the loop enters the block just after each device load (which leaves it) and
// wherever the timer's interrupts cut it, where the translated code must load them first.
std::vector<uint32_t> dependent_loop() {
    return with_prologue({
        addi(10, 10, 1),                     // 0x20  loop
        lw(13, 20, 0),                       // 0x24  a load's value in ecx ...
        add(14, 13, 13),                     // 0x28  ... as rs1 and rs2
        slt(15, 14, 13),                     // 0x2c  its result in ecx, rs1 in eax
        sll(16, 14, 15),                     // 0x30  both at hand
        xor_(16, 13, 16),                    // 0x34  rs2 at hand: the other way round
        sw(16, 20, 0),                       // 0x38  the next pass loads it
        lw(17, 9, 0),                        // 0x3c  device load: leaves, the loop enters at 0x40
        sub(18, 17, 16),                     // 0x40  rs1 the device's value
        and_(19, 16, 18),                    // 0x44
        srai(19, 19, 1),                     // 0x48
        andi(22, 10, 15),                    // 0x4c
        slli(22, 22, 2),                     // 0x50
        addi(3, 3, 1),                       // 0x54
        addi(3, 3, 2),                       // 0x58
        addi(3, 3, 3),                       // 0x5c  the line's last
        add(23, 24, 22),                     // 0x60  an address ...
        lw(23, 23, 0),                       // 0x64  ... loaded through, then in ecx
        mul(7, 7, 23),                       // 0x68  rs2 in ecx
        addi(23, 23, 1),                     // 0x6c  in eax now: ecx's copy is stale ...
        addi(11, 23, 7),                     // 0x70  eax x11 now, ecx still the stale copy
        mul(7, 7, 23),                       // 0x74  ... and not to be taken
        sw(7, 24, 0x40),                     // 0x78  the stored value then in ecx ...
        add(6, 6, 7),                        // 0x7c  ... as rs2
        lw(8, 9, 4),                         // 0x80  device load: leaves, the loop enters at 0x84
        add(5, 8, 19),                       // 0x84
        blt(5, 6, 0x8),                      // 0x88  -> 0x90, on a value in eax
        addi(4, 4, 2),                       // 0x8c
        addi(4, 4, 1),                       // 0x90
        jal(0, 0x20 - 0x94),                 // 0x94  -> loop
    });
}

CpuOutcome run_dependent(const CoreVariant& v, Dispatch how) {
    CoreRig rig;
    std::vector<uint32_t> table;  // odd, so the products never settle at 0
    for (uint32_t i = 0; i < 16; ++i) table.push_back(2 * i * i + 3 * i + 1);
    rig.load(kData + 0x80, table);
    rig.load(kData, {0x01234567});
    core::Cpu& cpu = start(rig, v, how, dependent_loop(), interrupt_handler());
    cpu.set_reg(20, kData);
    cpu.set_reg(21, kLog);
    cpu.set_reg(24, kData + 0x80);
    cpu.set_reg(7, 3);
    return drive(rig, how, Time::ns(140), [](uint32_t acks) { return Time::ns(70 + (acks * 43) % 263); }, 6, 31);
}

TEST_P(BlockDispatch, RegistersReadRightAfterTheyAreWrittenGiveTheSameResults) {
    const CpuOutcome single = same_every_way([&](Dispatch how) { return run_dependent(GetParam(), how); });

    ASSERT_GT(single.regs[4], 100u) << "the loop did not run";
    ASSERT_GT(single.counts.interrupts, 50u);
    ASSERT_GT(single.counts.device_loads, 100u);
}

// A core without a D-cache (a LANai) posts its SRAM stores: a block goes on through them,
// each waiting for a free slot of the write buffer as the per-instruction loop's would,
// though the block charged its whole base cost before the first. A small, slow buffer
// makes bursts of stores stall mid-block, and the timer's interrupts cut the blocks
// anywhere.
std::vector<uint32_t> store_burst_loop() {
    return with_prologue({
        addi(10, 10, 1),                     // 0x20  loop
        sw(10, 20, 0),                       // 0x24  a burst of stores ...
        sw(10, 20, 4),                       // 0x28
        addi(11, 11, 3),                     // 0x2c
        sh(11, 20, 8),                       // 0x30
        sh(10, 20, 10),                      // 0x34
        lw(12, 20, 4),                       // 0x38  ... a load between ...
        add(13, 13, 12),                     // 0x3c
        sw(13, 20, 12),                      // 0x40  ... and more
        sw(11, 20, 16),                      // 0x44
        xor_(14, 13, 11),                    // 0x48
        sw(14, 20, 20),                      // 0x4c
        andi(15, 10, 15),                    // 0x50
        bne(15, 0, 0x8),                     // 0x54  -> 0x5c, 15 passes of 16
        sw(10, 9, 0),                        // 0x58  device store
        addi(4, 4, 1),                       // 0x5c
        jal(0, 0x20 - 0x60),                 // 0x60  -> loop
    });
}

CpuOutcome run_store_bursts(Dispatch how) {
    core::CoreConfig cfg;
    cfg.posted_writes = 2;
    cfg.sram_write_cycles = 7;
    CoreRig rig(cfg);
    const CoreVariant caches_off{"CachesOff", false, 0};
    core::Cpu& cpu = start(rig, caches_off, how, store_burst_loop(), interrupt_handler());
    cpu.set_reg(20, kData);
    cpu.set_reg(21, kLog);
    return drive(rig, how, Time::ns(110), [](uint32_t acks) { return Time::ns(60 + (acks * 47) % 277); }, 3, 29);
}

TEST(BlockDispatchCachesOff, PostedStoresStallInsideBlocksAsOnThePerInstructionPath) {
    const CpuOutcome single = same_every_way([&](Dispatch how) { return run_store_bursts(how); });

    ASSERT_GT(single.regs[4], 100u) << "the loop did not run";
    ASSERT_GT(single.counts.interrupts, 50u);
    ASSERT_GT(single.stall, single.regs[4] * 7) << "the write buffer never filled";
}

// Blocks in a code page after the first: a block that runs on into its next fetch line, or
// jumps to a block in another line of its page, tests that line's I-cache residency by its
// offset in SRAM, not in its page; a jump to another page finds its block there. The two pages' loops
// lie at the same offsets in their pages, and a direct-mapped I-cache of four lines holds
// one page's lines at a time, so each pass misses all three of each page's lines; a block of the
// second page that tested its next line at its offset in the page would find the first
// page's line there and run on without the miss.
constexpr uint32_t kLaterPage = core::kCodePageBytes;

// 15 instructions at 0x24-0x5c of a page, then `last` at 0x60: register-only ones, but a
// jump at 0x3c over 0x40 into the next line (a chain into a block of the same page), and
// a block from 0x44 that runs on into the line of 0x60.
std::vector<uint32_t> straight_run(uint32_t last) {
    std::vector<uint32_t> words;
    for (uint32_t i = 0; i < 15; ++i) words.push_back(i % 3 == 0 ? addi(10, 10, 1) : i % 3 == 1 ? add(11, 11, 10) : xor_(12, 12, 11));
    words[6] = jal(0, 8);  // 0x3c -> 0x44
    words.push_back(last);
    return words;
}

// `step`: ns between the empty events that move the horizon (at 37 ns the horizon cuts most
// chains short; at 997 ns most go on into their target's block). `icache_bytes`: 128, four
// lines of 32 bytes in one way, where the pages' lines evict each other; 4096 in two ways,
// where all stay and a jump to the other page finds its line there (its block is then that
// page's, which a chain must find in that page).
CpuOutcome run_later_page(Dispatch how, int64_t step, uint32_t icache_bytes) {
    core::CoreConfig cfg;
    cfg.icache.size_bytes = icache_bytes;
    cfg.icache.ways = icache_bytes > 128 ? 2 : 1;
    CoreRig rig(cfg);
    rig.load(0, {jal(0, 0x20)});                                                // 0x00 -> 0x20
    std::vector<uint32_t> first = {addi(4, 4, 1)};                              // 0x20  a pass
    const std::vector<uint32_t> run = straight_run(jal(0, int32_t(kLaterPage + 0x24 - 0x60)));  // 0x60 -> next page
    first.insert(first.end(), run.begin(), run.end() - 1);
    first.push_back(run.back());
    rig.load(0x20, first);
    rig.load(kLaterPage + 0x24, straight_run(jal(0, int32_t(0x20 - (kLaterPage + 0x60)))));  // back at 0x60
    rig.cpu.set_block_dispatch(how != Dispatch::PerInstruction);
    if (how == Dispatch::Translated) rig.cpu.set_code_pool(&rig.pool);
    rig.cpu.release_reset(0);
    rig.cpu.set_cache_enable(true, true);
    for (int64_t ns = 5; ns < 20000; ns += step) rig.kernel.schedule_at(Time::ns(ns), [] {});
    rig.kernel.run_until(Time::us(20));
    return finish(rig, how);
}

TEST(BlockDispatchLaterPage, BlocksStepIntoTheirNextLineByItsPlaceInSram) {
    for (const int64_t step : {37, 997}) {
        SCOPED_TRACE("an event every " + std::to_string(step) + " ns");
        const CpuOutcome single = same_every_way([step](Dispatch how) { return run_later_page(how, step, 128); });

        const uint64_t passes = single.regs[4];
        ASSERT_GT(passes, 100u) << "the loop did not run";
        ASSERT_GE(single.icache_misses, 6 * (passes - 1)) << "the pages' three lines did not evict each other";

        const CpuOutcome resident = same_every_way([step](Dispatch how) { return run_later_page(how, step, 4096); });
        ASSERT_GE(resident.regs[4], passes) << "the loop ran slower with its lines resident";
        ASSERT_LE(resident.icache_misses, 7u) << "the lines did not stay";
    }
}

}  // namespace
}  // namespace niclab::test
