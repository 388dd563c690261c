#pragma once
// The RAS system's watch on the NICs (seed 000 §5.3): the firmware increments a
// heartbeat word in uncached SRAM (NICLAB_HEARTBEAT_ADDR); a NIC whose heartbeat has
// started and then stays still for longer than the timeout is marked dead and
// reported. RAS samples from outside the simulated machine (like the SMW over its own
// network), between slices of a run, so it adds no events and costs the NICs nothing.
#include <cstdint>
#include <string>
#include <vector>

#include "niclab/nic/embedded_nic.hpp"

namespace niclab::system {

class RasMonitor {
public:
    explicit RasMonitor(Time timeout) : timeout_(timeout) {}

    bool enabled() const { return timeout_ > Time{}; }
    // How often to sample: a stopped heartbeat is reported after the timeout and at
    // most two sample periods (twice the timeout at worst).
    Time period() const { return Time::ps(std::max<int64_t>(timeout_.ps() / 2, 1)); }

    // Looks at every NIC's heartbeat at `now`; returns the nodes newly marked dead.
    std::vector<size_t> sample(const std::vector<const nic::EmbeddedNic*>& nics, Time now);
    bool dead(size_t node) const { return node < watches_.size() && watches_[node].dead; }
    const std::string& reason(size_t node) const { return watches_.at(node).reason; }

private:
    struct Watch {
        uint32_t last = 0;
        Time changed{};
        uint64_t loads = 0;  // a reload restarts the watch
        bool dead = false;
        std::string reason;
    };
    Time timeout_;
    std::vector<Watch> watches_;
};

}  // namespace niclab::system
