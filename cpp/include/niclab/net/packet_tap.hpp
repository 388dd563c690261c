#pragma once
// What the network tells an observer of its packets (a capture, capture.hpp). The
// network calls a tap only when one is set (Network::set_tap), so a run without one
// pays a null check per transmission and nothing else.
#include <cstdint>
#include <span>

#include "niclab/net/link.hpp"
#include "niclab/net/packet.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::net {

class PacketTap {
public:
    virtual ~PacketTap() = default;
    // The NIC handed a packet to the network (Network::inject) at `at` (now); it goes
    // onto the injection cable `link` when that is free, with virtual channel `vc`.
    virtual void injected(LinkId link, Time at, const PacketHeader& header, std::span<const uint8_t> payload,
                          uint8_t vc) = 0;
    // A packet went onto link `link` at `start`: the copy that got through (after
    // `t.retries` corrupted copies were resent; with link retry off, `payload` holds
    // any flipped bits and t.corrupted is set). `vc` is the virtual channel it uses on
    // this cable. The payload is valid during the call only.
    virtual void transmitted(LinkId link, Time start, const PacketHeader& header, std::span<const uint8_t> payload,
                             uint8_t vc, const Transmission& t) = 0;
    // A packet's tail has arrived over ejection link `link` into the NIC's receive
    // buffer, at `at` (now). `corrupted`: a bit was flipped on some hop (retry off).
    virtual void arrived(LinkId link, Time at, const PacketHeader& header, std::span<const uint8_t> payload,
                         bool corrupted) = 0;
};

}  // namespace niclab::net
