#pragma once
// The host's programmed I/O to SeaStar memory across HyperTransport (preset "host.pio_*"):
// what each host driver charges for a load from or a store to NIC memory.
#include "niclab/sim/time.hpp"

namespace niclab::seastar {

struct PioConfig {
    Time read = Time::ns(750);   // host load from NIC memory: a HyperTransport round trip
    Time write = Time::ns(50);   // host store to NIC memory: posted
};

}  // namespace niclab::seastar
