#pragma once
// A core on a small SRAM with a fake bus and nothing else: for tests of the ISS
// itself, with programs written word by word (rv32_encode.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <vector>

#include "niclab/core/cpu.hpp"
#include "rv32_encode.hpp"

namespace niclab::test {

// MMIO devices answer in [kDeviceBase, kDeviceBase + kDeviceSize); everything else
// outside SRAM is rejected, which the core must turn into an access fault. Reads are
// logged, so not pure, except of the status register, which shows `status`.
class FakeBus : public core::Bus {
public:
    static constexpr uint32_t kDeviceBase = 0x40000000, kDeviceSize = 0x1000;
    static constexpr uint32_t kStatus = kDeviceBase + 0x100;

    bool read(uint32_t addr, unsigned, Time now, uint32_t& value, Time& latency) override {
        if (addr - kDeviceBase >= kDeviceSize) return false;
        latency = read_latency;
        if (addr == kStatus) {
            value = status;
            return true;
        }
        access_times.push_back(now);
        value = 0xCAFE0000u | (addr & 0xFFFF);
        return true;
    }
    bool pure_read(uint32_t addr) const override { return addr == kStatus; }
    bool write(uint32_t addr, unsigned, uint32_t value, Time now, Time& occupancy) override {
        if (addr - kDeviceBase >= kDeviceSize) return false;
        access_times.push_back(now);
        if (on_write) on_write(addr, value, now);
        occupancy = Time::ns(8);
        return true;
    }

    Time read_latency = Time::ns(16);
    uint32_t status = 0;
    std::vector<Time> access_times;
    std::function<void(uint32_t, uint32_t, Time)> on_write;
};

class CpuTest : public ::testing::Test {
protected:
    static constexpr uint32_t kSramSize = 0x10000;
    static constexpr uint32_t kCachedBase = 0x00000000;    // code and data at small addresses: short encodings
    static constexpr uint32_t kUncachedBase = 0x00100000;

    CpuTest() : sram_(kSramSize, 0) {}
    ~CpuTest() override {
        if (cpu_) kernel_.remove_runnable(cpu_.get());
    }

    // Write instruction words at SRAM offset `at` (host side, before start()).
    void program(uint32_t at, std::initializer_list<uint32_t> words) {
        for (uint32_t w : words) { poke(at, w); at += 4; }
    }
    void poke(uint32_t at, uint32_t word) { std::memcpy(&sram_[at], &word, 4); }
    uint32_t peek(uint32_t at) const { uint32_t w; std::memcpy(&w, &sram_[at], 4); return w; }

    core::Cpu& start(uint32_t entry = kCachedBase) {
        core::SramView view{sram_.data(), kSramSize, kCachedBase, kUncachedBase};
        cpu_ = std::make_unique<core::Cpu>(kernel_, cfg_, view, bus_);
        cpu_->release_reset(entry);
        return *cpu_;
    }
    core::Cpu& cpu() { return *cpu_; }
    void run_until(Time t) { kernel_.run_until(t); }
    uint32_t csr(uint32_t number) {
        uint32_t v = 0;
        EXPECT_TRUE(cpu_->read_csr(number, v));
        return v;
    }
    // With the caches off (the reset state) the core reads the whole line of each line
    // the pc enters (PPC440x5 manual p.104): the first beat an SRAM read, each further
    // 16-byte beat line_beat_cycles. The programs here fit in their first line.
    uint32_t line_read() const {
        return cfg_.sram_read_cycles + (cfg_.icache.line_bytes / cfg_.bus_bytes_per_beat - 1) * cfg_.line_beat_cycles;
    }

    sim::Kernel kernel_;
    core::CoreConfig cfg_;  // the SeaStar defaults
    FakeBus bus_;

private:
    std::vector<uint8_t> sram_;
    std::unique_ptr<core::Cpu> cpu_;  // last: destroyed before the kernel and bus it uses
};

}  // namespace niclab::test
