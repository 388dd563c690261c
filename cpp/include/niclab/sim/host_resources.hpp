#pragma once
// What the machine running the simulation can give: memory, and memory mappings, which
// the kernel limits per process (vm.max_map_count). A model that asks for more than it
// can give (a host process's stack, a NIC's SRAM) gets a HostResourceError that says
// which ran out and what to do about it.
#include <string>

#include "niclab/sim/error.hpp"

namespace niclab::sim {

// The machine could not give what the model asked of it, with why: out of memory, or
// out of the kernel's memory mappings.
class HostResourceError : public Error {
public:
    using Error::Error;
};

// The mappings this process holds (lines of /proc/self/maps), and the most the kernel
// allows it (vm.max_map_count); -1 where they cannot be read.
long mappings_held();
long mapping_limit();

// "`what` could not be had (`doing`): " and which resource ran out, with the remedy:
// a HostResourceError's message, read right after the refusal.
std::string why_not_had(const std::string& what, const std::string& doing);

}  // namespace niclab::sim
