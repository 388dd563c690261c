#pragma once
// What every StarT-X transport shares: its node, peer and payload seed, the send and
// receive buffers in host memory, and the queue of messages taken but not yet handed to
// recv() (msg::Transport: poll takes, recv hands over).
#include <string>

#include "niclab/msg/payload_pattern.hpp"
#include "niclab/sim/ring_queue.hpp"
#include "niclab/systems/startx/transport.hpp"

namespace niclab::startx {

class JamTransportBase : public msg::Transport {
public:
    JamTransportBase(std::string name, Jam& jam, uint32_t peer, uint64_t seed)
        : name_(std::move(name)), jam_(jam), peer_(peer), seed_(seed) {}

    uint32_t node() const override { return jam_.node(); }
    uint32_t peer() const override { return peer_; }
    uint64_t received() const override { return received_; }

protected:
    // Checks the size against the limit and what open() prepared for.
    void check_size(uint64_t bytes, uint64_t limit) const {
        if (bytes > limit)
            throw msg::TransportError("node " + std::to_string(node()) + ": the " + name_ + " transport takes at most " +
                                      std::to_string(limit) + " B per message, not " + std::to_string(bytes));
    }
    void check_open(uint64_t bytes) const {
        if (!opened_) throw msg::TransportError("node " + std::to_string(node()) + ": " + name_ + " transport used before open()");
        check_size(bytes, max_bytes_);
    }
    uint64_t send_key(uint64_t bytes) const { return msg::pattern_key(seed_, node(), bytes); }
    uint64_t recv_key(uint64_t bytes) const { return msg::pattern_key(seed_, peer_, bytes); }
    void deliver(uint64_t bytes, uint64_t tag) {
        ready_.push_back({bytes, tag});
        ++received_;
    }
    msg::Received pop_ready() {
        const msg::Received r = ready_.front();
        ready_.pop_front();
        return r;
    }
    [[noreturn]] void protocol_error(const std::string& what) const {
        throw msg::TransportError("node " + std::to_string(node()) + " (" + name_ + " transport): " + what);
    }

    std::string name_;
    // What a data check names in its error ("pio message"): made once, not at every
    // message (a string that long is an allocation).
    const std::string message_what_ = name_ + " message";
    Jam& jam_;
    uint32_t peer_;
    uint64_t seed_;
    bool opened_ = false;
    uint64_t max_bytes_ = 0;
    uint64_t send_bytes_ = 0;  // the prepared message
    sim::RingQueue<msg::Received> ready_;
    uint64_t received_ = 0;
};

}  // namespace niclab::startx
