#pragma once
// For tests that run one program two ways (block dispatch on and off, polling
// fast-forward on and off) and require the same outcome to the cycle: a rig (a core
// with its own kernel, fake bus and SRAM), the ways a program runs (caches, view),
// and everything a run leaves that can be observed - counters, registers, cache
// statistics, device access times and SRAM.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "cpu_fixture.hpp"

namespace niclab::test {

// How a program runs: with the caches off or on, from the cached or the uncached view.
struct CoreVariant {
    const char* name;
    bool caches;
    uint32_t entry;  // the program's first instruction, in the cached or uncached view
};
inline void PrintTo(const CoreVariant& v, std::ostream* os) { *os << v.name; }
// The three, for INSTANTIATE_TEST_SUITE_P, with their names.
inline auto core_variants(uint32_t uncached_base) {
    return ::testing::Values(CoreVariant{"CachesOff", false, 0}, CoreVariant{"CachesOn", true, 0},
                             CoreVariant{"UncachedView", true, uncached_base});
}
inline std::string variant_name(const ::testing::TestParamInfo<CoreVariant>& p) { return p.param.name; }

struct CpuOutcome {
    uint64_t cycles, instret, stall;
    uint32_t pc;
    std::vector<uint32_t> regs;
    core::Cpu::Counts counts;
    uint64_t icache_accesses, icache_misses, dcache_accesses, dcache_misses, dcache_writebacks;
    std::vector<Time> device_accesses;
    std::vector<uint8_t> sram;
};

// A core alone on its kernel, fake bus and SRAM (SeaStar timing unless `cfg` says
// otherwise), programs loaded at SRAM offsets before it leaves reset.
struct CoreRig {
    static constexpr uint32_t kSramSize = 0x10000, kUncachedBase = 0x00100000;

    explicit CoreRig(const core::CoreConfig& cfg = {})
        : sram(kSramSize, 0), cpu(kernel, cfg, core::SramView{sram.data(), kSramSize, 0, kUncachedBase}, bus) {}
    ~CoreRig() { kernel.remove_runnable(&cpu); }

    void load(uint32_t at, const std::vector<uint32_t>& words) {
        for (uint32_t w : words) {
            store(at, w);
            at += 4;
        }
    }
    void store(uint32_t at, uint32_t word) { std::memcpy(&sram[at], &word, 4); }
    uint32_t word(uint32_t at) const {
        uint32_t w;
        std::memcpy(&w, &sram[at], 4);
        return w;
    }
    // The timer interrupt raised at `first`, and again `delay(acks)` after each store
    // to the device at `ack_address` acknowledges it.
    void timer_rearmed_on_ack(Time first, uint32_t ack_address, std::function<Time(uint32_t)> delay) {
        bus.on_write = [this, ack_address, delay = std::move(delay)](uint32_t addr, uint32_t, Time now) {
            if (addr != ack_address) return;
            cpu.set_interrupt_pending(core::kMipMTIP, false);
            kernel.schedule_at(now + delay(++acks), [this] { cpu.set_interrupt_pending(core::kMipMTIP, true); });
        };
        kernel.schedule_at(first, [this] { cpu.set_interrupt_pending(core::kMipMTIP, true); });
    }

    sim::Kernel kernel;
    FakeBus bus;
    std::vector<uint8_t> sram;
    core::CodePool pool;  // shared code and its translation, once the core is given it
    core::Cpu cpu;        // after what it uses
    uint32_t acks = 0;
};

inline CpuOutcome outcome_of(const core::Cpu& cpu, const FakeBus& bus, const std::vector<uint8_t>& sram) {
    CpuOutcome o{cpu.cycles(), cpu.instret(), cpu.stall_cycles(), cpu.pc(), {}, cpu.counts(),
                 cpu.icache().accesses, cpu.icache().misses, cpu.dcache().accesses, cpu.dcache().misses,
                 cpu.dcache().writebacks, bus.access_times, sram};
    for (unsigned i = 0; i < 32; ++i) o.regs.push_back(cpu.reg(i));
    return o;
}

inline void expect_same_outcome(const CpuOutcome& a, const CpuOutcome& b) {
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.instret, b.instret);
    EXPECT_EQ(a.stall, b.stall);
    EXPECT_EQ(a.pc, b.pc);
    EXPECT_EQ(a.regs, b.regs);
    EXPECT_EQ(a.counts.interrupts, b.counts.interrupts);
    EXPECT_EQ(a.counts.exceptions, b.counts.exceptions);
    EXPECT_EQ(a.counts.uncached_loads, b.counts.uncached_loads);
    EXPECT_EQ(a.counts.uncached_stores, b.counts.uncached_stores);
    EXPECT_EQ(a.counts.device_loads, b.counts.device_loads);
    EXPECT_EQ(a.counts.device_stores, b.counts.device_stores);
    EXPECT_EQ(a.icache_accesses, b.icache_accesses);
    EXPECT_EQ(a.icache_misses, b.icache_misses);
    EXPECT_EQ(a.dcache_accesses, b.dcache_accesses);
    EXPECT_EQ(a.dcache_misses, b.dcache_misses);
    EXPECT_EQ(a.dcache_writebacks, b.dcache_writebacks);
    EXPECT_EQ(a.device_accesses, b.device_accesses) << "a device saw the core at another time";
    ASSERT_EQ(a.sram.size(), b.sram.size());
    for (uint32_t at = 0; at + 4 <= a.sram.size(); at += 4) {
        uint32_t x, y;
        std::memcpy(&x, &a.sram[at], 4);
        std::memcpy(&y, &b.sram[at], 4);
        ASSERT_EQ(x, y) << "SRAM word at 0x" << std::hex << at;
    }
}

}  // namespace niclab::test
