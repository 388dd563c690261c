#pragma once
// What the core sees beyond its SRAM: MMIO registers and host-memory windows.
// The NIC implements it; the core calls it on the slow path, after synchronizing
// global time to its own local time.
#include <cstdint>

#include "niclab/sim/time.hpp"

namespace niclab::core {

class Bus {
public:
    virtual ~Bus() = default;
    // Returns false for an address nothing answers to (the core raises an access
    // fault). `latency` is how long the core stalls waiting for the data.
    virtual bool read(uint32_t addr, unsigned size, Time now, uint32_t& value, Time& latency) = 0;
    // Stores are posted: `occupancy` is how long the write keeps one of the core's
    // outstanding-write slots busy.
    virtual bool write(uint32_t addr, unsigned size, uint32_t value, Time now, Time& occupancy) = 0;
    // A load here changes nothing (no side effect, no event, no bus occupancy), costs
    // the same latency each time, and returns the same value until an event or a store
    // changes it - whatever `now` is. The core's polling fast-forward may then skip
    // passes of a loop that reads it (spin.cpp). False, the default, is always safe.
    virtual bool pure_read(uint32_t addr) const {
        (void)addr;
        return false;
    }
};

}  // namespace niclab::core
