// The parameters: seed defaults, copy-time arithmetic, and clear errors.
#include <gtest/gtest.h>

#include "niclab/host/host_config.hpp"
#include "niclab/host/host_cpu.hpp"

namespace niclab::host {

TEST(HostConfig, DefaultsComeFromTheSeeds) {
    HostConfig c;
    EXPECT_EQ(c.null_trap, Time::ns(75));      // seed 001 §3.3
    EXPECT_EQ(c.interrupt_entry, Time::us(2));  // seed 001 §3.3, "at least 2 µs"
    EXPECT_EQ(c.cores, 1u);                     // seed 001 §5.1
    EXPECT_NO_THROW(c.validate());
}

TEST(HostConfig, CopyTimeRoundsUpToAPicosecond) {
    HostConfig c;
    c.copy_bandwidth_mb_s = 3000;  // 333.33 ps per byte
    EXPECT_EQ(c.copy_time(0), Time{});
    EXPECT_EQ(c.copy_time(3), Time::ns(1));
    EXPECT_EQ(c.copy_time(1), Time::ps(334));
    // A terabyte does not overflow the intermediate product.
    c.copy_bandwidth_mb_s = 1000;
    EXPECT_EQ(c.copy_time(1'000'000'000'000ull), Time::ms(1000'000));
}

TEST(HostConfig, BadValuesNameTheField) {
    auto expect_error = [](HostConfig c, const char* field) {
        try {
            c.validate();
            ADD_FAILURE() << "no error for " << field;
        } catch (const HostConfigError& e) {
            EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
        }
    };
    HostConfig c;
    c.cores = 0;
    expect_error(c, "cores");
    c = HostConfig{};
    c.copy_bandwidth_mb_s = 0;
    expect_error(c, "copy_bandwidth_mb_s");
    c = HostConfig{};
    c.null_trap = Time::ps(-1);
    expect_error(c, "null_trap");
    c = HostConfig{};
    c.fiber_stack_bytes = 1024;
    expect_error(c, "fiber_stack_bytes");
}

TEST(HostConfig, HostCpuRejectsABadConfig) {
    sim::Kernel k;
    HostConfig c;
    c.cores = 0;
    EXPECT_THROW(HostCpu(k, c), HostConfigError);
}

}  // namespace niclab::host
