#pragma once
// Everything a run of a core leaves that can be observed - counters, registers, cache
// statistics, device access times and SRAM - for tests that run one program two
// ways (block dispatch on and off, polling fast-forward on and off) and require the
// same outcome to the cycle.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "cpu_fixture.hpp"

namespace niclab::test {

struct CpuOutcome {
    uint64_t cycles, instret, stall;
    uint32_t pc;
    std::vector<uint32_t> regs;
    core::Cpu::Counts counts;
    uint64_t icache_accesses, icache_misses, dcache_accesses, dcache_misses, dcache_writebacks;
    std::vector<Time> device_accesses;
    std::vector<uint8_t> sram;
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
