#pragma once
// A synthetic LogGP machine: two processors joined by a network whose costs are set by
// hand, so the tests can check that extract_logp and fit_loggp recover known parameters.
// A small deterministic discrete-event model, not the simulator.
//
// Timing rules (LogGP, Alexandrov et al. 1995; k = max(bytes, 1), so a 0-byte message
// costs what a 1-byte one does):
//  - Send: the processor is busy o_s; the message is injected when o_s ends. A send is
//    non-interruptible.
//  - Gap: consecutive injections from one processor are at least g + (k-1)*G apart, k of
//    the earlier message (its last byte leaves (k-1)*G after its first). A processor
//    that may not inject yet waits idle and starts o_s so that it ends when it may.
//  - Latency: a message arrives at the destination L + (k-1)*G after its injection.
//    Arrivals from one sender are already g apart, so no receive-side gap is modelled.
//  - Capacity: at most `capacity` messages from one sender are in the network (injected,
//    not yet arrived); a send that would exceed it waits like one held by the gap. The
//    destination buffers arrived messages without bound until its processor takes them.
//    The default ceil(L/g) (at least 1) never binds for a gap-paced sender.
//  - Receive: an arrived message is handled (busy o_r, non-interruptible) as soon as the
//    processor is not inside a send or a receive; receives go before the processor's own
//    next action. A computation (the programs' "delay d") is interrupted by a receive:
//    its end moves back by o_r, as an interrupt steals CPU time from computation.
//  - Replies: a handler that answers (P_r in the programs below) sends the answer as
//    part of handling the message, as an Active Messages reply: before it takes further
//    messages, waiting for the gap if it must.
//  - Ties: everything that happens at one instant (arrivals, ends of busy periods) is
//    applied before any processor chooses its next action, so a message arriving just as
//    a send could start is received first.
// Both processors have the same costs. All times in microseconds.
//
// A consequence worth knowing: a reply that lands less than o_r before a gap-paced send
// would start delays that send, and the delay comes back a round trip later. So the
// d = 0 signature of a gap-bound machine (g > o_s + o_r) settles exactly at g only when
// the replies' phase, (2L + 2 o_s + o_r) mod g, stays out of (g - o_r, g]; otherwise the
// measured gap is somewhat larger, as on a host that takes its replies by interrupt.
#include "niclab/exp/fits.hpp"
#include "niclab/sim/error.hpp"

namespace niclab::exp {

class LogPMachineError : public Error {
public:
    using Error::Error;
};

struct LogGPCosts {
    double o_s_us = 0, o_r_us = 0, g_us = 0, L_us = 0, G_us_per_byte = 0;
    int capacity = 0;  // 0: ceil(L/g), at least 1
};

class LogPMachine {
public:
    // Overheads, L and G must be >= 0 and finite, g > 0, capacity >= 0.
    explicit LogPMachine(LogGPCosts c);

    // The costs in effect: capacity is the default when 0 was given.
    const LogGPCosts& costs() const { return costs_; }

    // The LogP signature program (Culler et al. 1996): P_s sends m messages of `bytes`
    // with a computation of d_us between consecutive sends; P_r answers each with a reply
    // of the same size, which P_s receives as it comes (interrupting the computation). Returns T_total, the time at which P_s has
    // issued (injected) the m-th message.
    double signature_t_total_us(int m, double d_us, double bytes = 0) const;

    // One message of `bytes` and its reply of the same size: from the start of the send
    // until the sender has received the reply (end of its o_r).
    double round_trip_us(double bytes = 0) const;

    // The parametrized round trips at one size, n >= 2: PRTT(1,0,s), PRTT(n,0,s) and
    // PRTT(n,d,s) with d = PRTT(1,0,s) (the client computes d before each send after the
    // first; the server answers the n-th message), and o_r as the server measures it: in
    // a PRTT(n,0,s) run the server, having received the first message, spins for (n-1)*d
    // without taking messages (they queue, having arrived), then receives the other n-1;
    // o_r = (time to receive messages 2..n - (n-1)*d) / (n-1).
    PrttPoint prtt(double bytes, int n) const;

private:
    LogGPCosts costs_;
};

}  // namespace niclab::exp
