// Parameter values the NIC model cannot represent must be refused as a ConfigError
// naming the key, never crash the process or wrap around. Each case runs in a
// child process, because a wrong value may kill the process (e.g. SIGFPE).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "niclab/system/config_error.hpp"
#include "niclab/system/system.hpp"

namespace niclab::system {
namespace {

enum Outcome { kConfigError = 0, kWrongKeyPath = 1, kOtherError = 2, kAccepted = 3 };

const char* describe(int status) {
    if (WIFSIGNALED(status)) return "a crash (the process was killed by a signal)";
    switch (WEXITSTATUS(status)) {
        case kConfigError: return "ConfigError";
        case kWrongKeyPath: return "a ConfigError naming another key";
        case kOtherError: return "an exception other than ConfigError";
        case kAccepted: return "acceptance of the value";
    }
    return "unknown";
}

// Builds a System with set = {key: value} and runs hello for 10 us in a child process.
int try_in_child(const std::string& key, const nlohmann::json& value) {
    pid_t pid = fork();
    if (pid == 0) {
        int code = kAccepted;
        try {
            auto spec = SystemSpec::from_json({{"set", {{key, value}}}});
            spec.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/examples/hello.elf"};
            System sys(spec);
            sys.run_for(Time::us(10));
        } catch (const ConfigError& e) {
            code = e.key_path() == "set." + key ? kConfigError : kWrongKeyPath;
        } catch (...) {
            code = kOtherError;
        }
        _exit(code);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

struct Case {
    const char* key;
    nlohmann::json value;
    const char* why;
};

class ParameterRange : public ::testing::TestWithParam<Case> {};

TEST_P(ParameterRange, IsAConfigError) {
    const Case& c = GetParam();
    int status = try_in_child(c.key, c.value);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == kConfigError)
        << "set." << c.key << " = " << c.value.dump() << " (" << c.why << ") gives "
                     << describe(status) << ", not ConfigError(\"set." << c.key << "\")";
}

INSTANTIATE_TEST_SUITE_P(
    Unrepresentable, ParameterRange,
    ::testing::Values(
        Case{"core.clock_mhz", 2'000'000, "Clock::from_mhz gives a 0 ps period"},
        Case{"core.icache.size_bytes", int64_t{1} << 32, "truncated to uint32_t 0"},
        Case{"core.icache.line_bytes", 24, "not a power of two"},
        Case{"core.dcache.ways", 3, "size not a multiple of line x ways"},
        Case{"core.cpi_alu", int64_t{1} << 32, "truncated to uint32_t 0: free instructions"},
        Case{"boot_timeout_us", int64_t{10'000'000'000'000}, "Time::us overflows int64 picoseconds"}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

TEST(ParameterRange, OrdinaryValuesAreAccepted) {
    EXPECT_EQ(WEXITSTATUS(try_in_child("core.clock_mhz", 400)), kAccepted);
    EXPECT_EQ(WEXITSTATUS(try_in_child("core.icache.size_bytes", 16384)), kAccepted);
}

}  // namespace
}  // namespace niclab::system
