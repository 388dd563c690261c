#pragma once
// The DSNIC's CSP library (seed 003 §5 L522-536): processes communicate over channels,
// and "the CSP channels are virtual links". Every call is a system call into the driver
// (L610). Blocking calls deschedule the process until the driver's interrupt handler
// wakes it (L614). Message memory is the caller's, locked and DMA-able (L534); the
// receive buffer of a channel is whole packets long, so the receiving DMA (always a
// full packet, flush) writes its padding inside it, never beyond.
//
//   send    blocking, synchronous CSP: returns once the receiver has the whole message
//           (its acknowledgement arrived), like an occam channel output
//   isend   non-blocking (L526, MPI's definition): returns at once; wait() finishes it
//   bsend   asynchronous, buffered (L526: may finish before the receive): the message is
//           copied into the channel's kernel buffer and the caller's buffer is free at once
//   recv    blocking: the next message of the channel
//   probe   non-blocking: whether recv would return at once
//   alt     active channel selection (L526): blocks until one of several channels has
//           a message, returns the first such one (occam's PRI ALT); recv then takes it
// Not built: ALT guards on outputs or timers.
#include <cstdint>
#include <span>
#include <vector>

#include "niclab/systems/dsnic/driver.hpp"

namespace niclab::dsnic {

class CspChannel {
public:
    CspChannel(Driver& driver, Driver::Channel& ch) : driver_(driver), ch_(ch) {}
    static CspChannel open(host::ProcessContext& ctx, Driver& driver, uint8_t vl, uint32_t peer, uint64_t rx_addr,
                           uint64_t rx_capacity) {
        return CspChannel(driver, driver.open(ctx, vl, peer, rx_addr, rx_capacity));
    }
    void send(host::ProcessContext& ctx, uint64_t addr, uint64_t bytes, uint32_t tag = 0) {
        isend(ctx, addr, bytes, tag);
        wait(ctx);
    }
    void isend(host::ProcessContext& ctx, uint64_t addr, uint64_t bytes, uint32_t tag = 0) {
        driver_.send(ctx, ch_, addr, bytes, tag);
    }
    void bsend(host::ProcessContext& ctx, uint64_t addr, uint64_t bytes, uint32_t tag = 0) {
        driver_.bsend(ctx, ch_, addr, bytes, tag);
    }
    void wait(host::ProcessContext& ctx) { driver_.wait_sends(ctx, ch_); }
    bool sends_done() const { return driver_.sends_done(ch_); }
    Message recv(host::ProcessContext& ctx) { return driver_.recv(ctx, ch_); }
    bool probe(host::ProcessContext& ctx) { return driver_.probe(ctx, ch_); }
    static std::size_t alt(host::ProcessContext& ctx, Driver& driver, std::span<CspChannel* const> channels) {
        std::vector<Driver::Channel*> chs;
        for (CspChannel* c : channels) chs.push_back(&c->ch_);
        return driver.alt(ctx, chs);
    }
    uint64_t rx_addr() const { return ch_.rx_addr; }
    uint64_t rx_capacity() const { return ch_.rx_capacity; }
    uint32_t peer() const { return ch_.peer; }

private:
    Driver& driver_;
    Driver::Channel& ch_;
};

}  // namespace niclab::dsnic
