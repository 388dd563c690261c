#include "niclab/sim/host_resources.hpp"

#include <fstream>

namespace niclab::sim {

long mappings_held() {
    std::ifstream in("/proc/self/maps");
    if (!in) return -1;
    long n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
}

long mapping_limit() {
    std::ifstream in("/proc/sys/vm/max_map_count");
    long v = -1;
    return in >> v ? v : -1;
}

std::string why_not_had(const std::string& what, const std::string& doing) {
    const std::string head = what + " could not be had (" + doing + "): ";
    const long held = mappings_held(), limit = mapping_limit();
    // A refused mapping may have needed two (a guard page splitting one), so two short counts.
    if (held >= 0 && limit > 0 && held + 2 > limit)
        return head + "the simulation holds all the memory mappings the kernel allows a process (vm.max_map_count = " +
               std::to_string(limit) + "); raise it (sysctl -w vm.max_map_count=" + std::to_string(limit * 4) +
               ") or simulate fewer nodes or host processes";
    return head + "the machine is out of memory";
}

}  // namespace niclab::sim
