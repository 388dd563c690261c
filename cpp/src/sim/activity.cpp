#include "niclab/sim/activity.hpp"

namespace niclab::sim {

const char* activity_name(Activity a) {
    switch (a) {
        case Activity::BusPio: return "bus: PIO";
        case Activity::HostInterruptEntry: return "host: interrupt entry";
        case Activity::HostInterruptHandler: return "host: interrupt handler";
        case Activity::HostInterruptExit: return "host: interrupt exit";
        case Activity::HostSyscall: return "host: system call";
        case Activity::HostLibrary: return "host: library";
        case Activity::HostPolling: return "host: polling (waiting)";
        case Activity::Firmware: return "firmware";
        case Activity::NicEngine: return "NIC engine";
        case Activity::BusDmaRead: return "bus: DMA read";
        case Activity::BusDmaWrite: return "bus: DMA write";
        case Activity::Network: return "network: wire and switches";
    }
    return "?";
}

uint32_t ActivityLog::intern(const std::string& name) {
    auto [it, added] = ids_.try_emplace(name, uint32_t(names_.size()));
    if (added) names_.push_back(name);
    return it->second;
}

}  // namespace niclab::sim
