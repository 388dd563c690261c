#pragma once
// The StarT-X NIU's network side, abstract: the NIU talks to a port, the port to a
// network (the lead bridges it to net::Network; tests use a direct loopback). The port
// owns link serialization and everything beyond the NIU's back end.
//
// Transmit: when a launched message reaches the head of the back end and
// can_inject(vnet) holds, the NIU calls inject(m) at the time the message starts on the
// link. If can_inject is false the NIU waits for listener.injection_ready(vnet).
// Receive: once a message has fully arrived, the port offers it to the NIU
// (listener.offer). The NIU refuses (returns false) when that priority's receive queue is
// full; the port keeps the message (backpressure into the network) and offers it again
// after the NIU calls receive_space_freed(vnet).
#include "niclab/systems/startx/message.hpp"

namespace niclab::startx {

// Implemented by the NIU.
class PortListener {
public:
    virtual ~PortListener() = default;
    // The port can take another message on `vnet` again.
    virtual void injection_ready(Priority vnet) = 0;
    // A message arrived; accept it (true) or refuse it for lack of receive space (false).
    virtual bool offer(const WireMessage& m) = 0;
};

// Implemented by the network bridge (and by test ports).
class NetworkPort {
public:
    virtual ~NetworkPort() = default;
    virtual void attach(PortListener& listener) = 0;
    virtual bool can_inject(Priority vnet) const = 0;
    // Start sending `m` now (the port copies it). Destination, up-route and the random
    // up-route flag are in m.header().
    virtual void inject(const WireMessage& m) = 0;
    // The NIU has room on `vnet` again: a refused message may be offered now.
    virtual void receive_space_freed(Priority vnet) = 0;
};

}  // namespace niclab::startx
