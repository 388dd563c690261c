#include "niclab/system/ras_monitor.hpp"

namespace niclab::system {

std::vector<size_t> RasMonitor::sample(const std::vector<const nic::EmbeddedNic*>& nics, Time now) {
    std::vector<size_t> newly_dead;
    if (!enabled()) return newly_dead;
    watches_.resize(nics.size());
    for (size_t i = 0; i < nics.size(); ++i) {
        const nic::EmbeddedNic& nic = *nics[i];
        Watch& w = watches_[i];
        if (w.loads != nic.loads()) w = Watch{0, now, nic.loads(), false, {}};  // new firmware
        if (w.dead || !nic.image()) continue;
        uint32_t beat = nic.peek32(nic.heartbeat_address());
        if (beat != w.last) {
            w.last = beat;
            w.changed = now;
        } else if (beat != 0 && now - w.changed > timeout_) {  // 0: it never started beating
            w.dead = true;
            w.reason = "heartbeat stuck at " + std::to_string(beat) + " since " + std::to_string(w.changed.as_us()) +
                       " us (timeout " + std::to_string(timeout_.as_us()) + " us); core " +
                       (nic.faulted() ? "faulted" : nic.halted() ? "halted" : "at " + nic.where(nic.cpu().pc()));
            newly_dead.push_back(i);
        }
    }
    return newly_dead;
}

}  // namespace niclab::system
