#include "niclab/system/host_part.hpp"

#include <cmath>

namespace niclab::system {

std::vector<ParameterDecl> host_parameters() {
    return {
        {"host.null_trap_ns", "ns", 0, 1e9, false},
        {"host.interrupt_entry_ns", "ns", 0, 1e9, false},
        {"host.interrupt_exit_ns", "ns", 0, 1e9, false},
        {"host.context_switch_ns", "ns", 0, 1e9, false},
        {"host.address_space_switch_ns", "ns", 0, 1e9, false},
        {"host.copy_bandwidth_mb_s", "MB/s", 1, 1e6, true},
        {"host.cores", "cores", 1, 64, true},
    };
}

Time time_ns(double ns) { return Time::ps(std::llround(ns * 1e3)); }
Time time_us(double us) { return Time::ps(std::llround(us * 1e6)); }

host::HostConfig host_config(const Preset& p) {
    host::HostConfig h;
    h.null_trap = time_ns(p.value("host.null_trap_ns"));
    h.interrupt_entry = time_ns(p.value("host.interrupt_entry_ns"));
    h.interrupt_exit = time_ns(p.value("host.interrupt_exit_ns"));
    h.context_switch = time_ns(p.value("host.context_switch_ns"));
    h.address_space_switch = time_ns(p.value("host.address_space_switch_ns"));
    h.copy_bandwidth_mb_s = uint64_t(p.integer("host.copy_bandwidth_mb_s"));
    h.cores = unsigned(p.integer("host.cores"));
    return h;
}

}  // namespace niclab::system
