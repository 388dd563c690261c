#pragma once
// Shared by the trace tests: firmware paths, a one-node SeaStar system, symbol lookup,
// the synthetic trace of seed 000 Figure 2, and a scratch directory.
#include <stdlib.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include <gtest/gtest.h>

#include "niclab/system/system.hpp"
#include "niclab/trace/trace.hpp"
#include "test_support.hpp"

namespace niclab::trace::test {

using niclab::test::TempDir;

inline std::filesystem::path example(const std::string& name) {
    return std::filesystem::path(NICLAB_FIRMWARE_DIR) / "examples" / (name + ".elf");
}
// tests/firmware/trace: cost_on, cost_off, cost_none.
inline std::filesystem::path cost_firmware(const std::string& name) {
    return std::filesystem::path(NICLAB_FIRMWARE_DIR) / "tests" / "trace" / (name + ".elf");
}

inline std::unique_ptr<system::System> one_node(uint32_t nodes = 1) {
    return std::make_unique<system::System>(system::SystemSpec::from_json({{"preset", "seastar"}, {"nodes", nodes}}));
}

inline uint32_t symbol(const nic::EmbeddedNic& nic, const std::string& name) {
    uint32_t a = 0;
    if (!nic.image() || !nic.image()->find_symbol(name, a)) ADD_FAILURE() << "no symbol " << name;
    return a;
}

// The ten records of seed 000 Figure 2, plus an eleventh 145 cycles (290 ns) after
// the tenth, which the figure's last line shows the gap to.
inline Trace figure2_trace() {
    Trace t;
    t.header.clock_hz = 500'000'000;
    t.header.build_id = "figure2";
    const uint32_t raw[][2] = {
        {0xe4681e8b, 0x18ff0c4c}, {0xe4681ee4, 0x63ff313c}, {0xe4681f0e, 0x00ff318c}, {0xe4681f1a, 0x00ff3198},
        {0xe4681fd5, 0x05ff12b4}, {0xe4682023, 0x00ff24b0}, {0xe468204b, 0x00ff24c0}, {0xe468205f, 0x00ff2124},
        {0xe4682068, 0x00ff212c}, {0xe468209b, 0x00ff2504}, {0xe468212c, 0x00ff2510}};
    for (const auto& r : raw) t.records.push_back({r[0], r[1]});
    t.header.total_count = t.records.size();
    return t;
}


}  // namespace niclab::trace::test
