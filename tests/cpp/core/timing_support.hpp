#pragma once
// Runs a timing firmware (tests/firmware/timing) on a one-node SeaStar system and
// reads back its measurements. Expectations are formulas over the preset's
// parameters, read from the System's own preset (overrides applied), so a test
// states how a cost arises rather than a number that happens to match.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "niclab/system/system.hpp"

namespace niclab::test {

struct Measurement {
    int64_t cycles = 0;
    int64_t instret = 0;
};

class TimingRun {
public:
    // Loads <firmware dir>/tests/timing/<name>.elf and runs it until it halts.
    explicit TimingRun(const std::string& name, nlohmann::json overrides = nlohmann::json::object()) {
        system::SystemSpec spec;
        spec.overrides = std::move(overrides);
        sys_ = std::make_unique<system::System>(spec);
        nic().load_firmware(std::string(NICLAB_FIRMWARE_DIR) + "/tests/timing/" + name + ".elf");
        sys_->run_until(Time::ms(5));
    }

    nic::EmbeddedNic& nic() { return sys_->nic(0); }
    bool halted() { return nic().halted(); }
    int64_t param(const std::string& key) const { return sys_->preset().value(key); }

    uint32_t symbol(const std::string& name) {
        uint32_t address = 0;
        EXPECT_TRUE(nic().image()->find_symbol(name, address)) << "symbol " << name;
        return address;
    }
    // timing_results[slot] (see tests/firmware/timing/timing.h).
    Measurement result(int slot) {
        uint32_t base = symbol("timing_results") + 8u * uint32_t(slot);
        return Measurement{nic().peek32(base), nic().peek32(base + 4)};
    }

    // Every measured region also pays for two CSR reads (timing.h).
    int64_t overhead_cycles() const { return 2 * param("core.cpi_csr"); }
    static constexpr int64_t kOverheadInsns = 2;

    // A cold line fill: the first beat costs an SRAM read, each further beat
    // line_beat_cycles (cpu.cpp, line_fill_cycles). With the I-cache off every line
    // the pc enters costs one ("icache"): the core fetches whole lines regardless.
    int64_t line_fill_cycles(const std::string& cache) const {
        int64_t beats = param("core." + cache + ".line_bytes") / param("core.bus_bytes_per_beat");
        return param("core.sram_read_cycles") + (std::max<int64_t>(beats, 1) - 1) * param("core.line_beat_cycles");
    }

private:
    std::unique_ptr<system::System> sys_;
};

}  // namespace niclab::test
