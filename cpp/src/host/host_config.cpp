#include "niclab/host/host_config.hpp"

#include <string>

namespace niclab::host {

Time HostConfig::copy_time(uint64_t bytes) const {
    // 10^6 bytes/s per MB/s and 10^12 ps/s: bytes * 10^6 / MB/s picoseconds. 128-bit
    // so multi-terabyte copies do not overflow before the division.
    unsigned __int128 num = static_cast<unsigned __int128>(bytes) * 1000'000u;
    unsigned __int128 ps = (num + copy_bandwidth_mb_s - 1) / copy_bandwidth_mb_s;
    return Time::ps(static_cast<int64_t>(ps));
}

void HostConfig::validate() const {
    auto fail = [](const std::string& what) { throw HostConfigError("host config: " + what); };
    if (null_trap < Time{}) fail("null_trap must not be negative");
    if (interrupt_entry < Time{}) fail("interrupt_entry must not be negative");
    if (interrupt_exit < Time{}) fail("interrupt_exit must not be negative");
    if (context_switch < Time{}) fail("context_switch must not be negative");
    if (address_space_switch < Time{}) fail("address_space_switch must not be negative");
    if (copy_bandwidth_mb_s == 0) fail("copy_bandwidth_mb_s must be positive");
    if (cores == 0) fail("cores must be at least 1");
    if (fiber_stack_bytes < 16 * 1024)
        fail("fiber_stack_bytes must be at least 16384, got " + std::to_string(fiber_stack_bytes));
}

}  // namespace niclab::host
