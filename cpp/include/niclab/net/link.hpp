#pragma once
// A unidirectional channel between two buffers (NIC or router port). It models
//  - serialization: a packet occupies the link for its wire bytes at the wire rate;
//  - propagation latency;
//  - credit-based flow control: the sender holds one credit per free buffer unit
//    at the receiver (per virtual channel) and sends a packet only when it holds the
//    packet's worth, so flow control never drops a packet. A unit is a whole packet
//    buffer (SeaStar) or a flit of the system's size (CreditUnit);
//  - bit errors with SeaStar's 16-bit link CRC and link-level retry (seed 001 §2).
//
// Timing model of retry (an assumption; the seeds give none): the receiver checks
// the CRC when the tail arrives and NACKs; the sender, go-back-N style, resends from
// the bad packet once the NACK is back, so each corrupted copy holds the link for
// serialization + 2 × latency. The link is reserved for the packet until a good copy
// is through, which keeps packets in order.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "niclab/net/packet.hpp"
#include "niclab/sim/divisor.hpp"
#include "niclab/sim/random.hpp"
#include "niclab/sim/time.hpp"

namespace niclab::net {

using LinkId = uint32_t;

struct LinkParams {
    // Payload bandwidth per direction with full packets (of the network's max_payload
    // bytes): 2.5 GB/s for SeaStar's 64-byte packets, which already accounts for
    // packet and retry-protocol overhead (seed 001 §2).
    uint64_t payload_bytes_per_s = 2'500'000'000;
    // Wire bytes per packet besides the payload: header + trailer/CRC. Short packets
    // pay it in full, so the wire rate is payload_bytes_per_s × (max_payload + overhead)
    // / max_payload (full packets then run at exactly the cited payload rate).
    // Default: SeaStar's 26 bytes.
    uint32_t overhead_bytes = Packet::kWireOverhead;
    // When non-zero, the raw wire rate in bytes per second, for systems whose papers
    // cite the signalling rate (DS links: 100 Mbit/s, 10 bits a byte) rather than a
    // payload rate; payload_bytes_per_s is then ignored.
    uint64_t wire_bytes_per_s = 0;
    // Character-coded serial links (IEEE 1355 DS links, seed 003): when wire_bits_per_s
    // is set, every payload and overhead byte crosses as a token of token_bits, a packet
    // ends with an end token of end_bits, and the receiver returns one flow-control
    // token (FCT) of fct_bits on the reverse cable for every fct_chars characters it
    // frees (the end token counts as a character), taking that cable's time. This is
    // where a DS link's 9.26 MB/s for 32-byte packets comes from (seed 003 L85).
    uint64_t wire_bits_per_s = 0;
    uint32_t token_bits = 10;
    uint32_t end_bits = 0;
    uint32_t fct_bits = 0;
    uint32_t fct_chars = 8;
    // Propagation + SerDes latency of one cable. Assumption (not in the seeds): 10 ns,
    // about two metres of cable and the transceivers.
    Time latency = Time::ns(10);
    // Probability that any one payload bit is flipped in one traversal.
    double bit_error_rate = 0.0;
    // With retry off, corrupted packets are delivered as they are (the end-to-end
    // CRC of the receiving NIC is then the only check).
    bool link_retry = true;
};

// What one credit stands for: a whole packet buffer (flit_bytes == 0, SeaStar), or
// flit_bytes of buffer, a packet then needing its wire bytes (payload + overhead)
// rounded up to flits — flow control counted in the system's own units.
struct CreditUnit {
    uint32_t flit_bytes = 0;
    uint32_t overhead_bytes = 0;
    uint32_t cost(uint32_t payload_length) const {
        if (flit_bytes == 0) return 1;
        const uint32_t flits = (payload_length + overhead_bytes + flit_bytes - 1) / flit_bytes;
        return flits ? flits : 1;
    }
};

struct LinkStats {
    uint64_t packets = 0;         // good traversals
    uint64_t payload_bytes = 0;
    uint64_t retries = 0;         // corrupted copies detected by the link CRC and resent
    uint64_t corrupted = 0;       // corrupted copies passed on (retry off, or CRC missed)
    Time busy{};                  // time the link was occupied, retries included
};

// What one send did: when the packet's head and tail reach the receiver and when
// the link is free again.
struct Transmission {
    Time head_arrival{};
    Time tail_arrival{};
    Time free_at{};
    uint32_t retries = 0;
    bool corrupted = false;
};

class alignas(64) Link {
public:
    // Up to 4 virtual networks × 2 dateline channels.
    static constexpr uint32_t kMaxVcs = 8;

    // max_payload: the network's payload capacity, the "full packet" of the payload
    // rate and the longest packet that may cross.
    Link(LinkId id, const LinkParams& params, uint32_t vcs, uint32_t credits_per_vc, uint64_t seed,
         uint32_t max_payload = Packet::kMaxPayload);

    LinkId id() const { return id_; }
    Time latency() const { return latency_; }
    // Computed, not tabled: thousands of links share the numbers, and a division (by
    // multiplication: sim::Divisor) is cheaper than the cache misses of a per-link table.
    Time serialization(unsigned payload_length) const {
        return wire_time(payload_length + overhead_bytes_) + end_time_;
    }
    // Time for a packet's leading overhead characters (its header) to cross.
    Time header_time() const { return overhead_bytes_ ? wire_time(overhead_bytes_) : Time{}; }
    // Characters a packet occupies in a buffer: payload, overhead and the end token.
    uint32_t characters(uint32_t payload_length) const {
        return payload_length + uint32_t(overhead_bytes_) + (end_time_ > Time{} ? 1 : 0);
    }
    // Time to send `wire` bytes (payload + overhead, or part of a packet: a wormhole
    // packet's tail flits).
    Time wire_time(int64_t wire) const {
        int64_t ps;
        if (wire <= max_wire_64_) {
            ps = int64_t(uint64_t(wire * ps_num_ + int64_t(ps_den_.value()) - 1) / ps_den_);
        } else {  // long packets on a slow reference: the product needs more than 63 bits
            __extension__ using u128 = unsigned __int128;
            ps = int64_t((u128(wire) * u128(ps_num_) + u128(ps_den_.value() - 1)) / u128(ps_den_.value()));
        }
        return Time::ps(ps > 0 ? ps : 1);
    }
    Time busy_until() const { return busy_until_; }
    bool idle(Time now) const { return busy_until_ <= now; }
    // Wormhole switching: a packet whose tail has not yet passed holds the link for
    // as long as that is unknown (held()), then until the time its tail passes.
    void hold() { busy_until_ = Time::max(); }
    bool held() const { return busy_until_ == Time::max(); }
    void release_at(Time tail_passed) {
        busy_until_ = tail_passed + fct_owed_;
        fct_owed_ = Time{};
    }
    // The receiver at the far end of the reverse cable freed `chars` characters of
    // buffer: this link carries the flow-control tokens for them, after whatever it is
    // sending (a worm's FCTs interleave with its characters, so they lengthen it).
    void send_flow_control(Time now, uint32_t chars) {
        if (fct_time_ > Time{}) [[unlikely]] count_flow_control(now, chars);  // character-coded links only
    }

    bool sends_flow_control() const { return fct_time_ > Time{}; }
    uint32_t vcs() const { return vcs_; }
    uint32_t credits(uint32_t vc) const { return credits_[vc]; }
    uint32_t credits_per_vc() const { return credits_per_vc_; }
    void take_credit(uint32_t vc, uint32_t n = 1) { credits_[vc] -= n; }
    void return_credit(uint32_t vc, uint32_t n = 1) { credits_[vc] += n; }

    // Sends a packet starting at `start` (the link must be idle by then). Bit errors
    // are drawn here; with retry off a flipped bit is left in `payload`.
    Transmission transmit(Time start, const PacketHeader& h, std::span<uint8_t> payload);

    double bit_error_rate() const { return bit_error_rate_; }
    void set_bit_error_rate(double ber);
    bool link_retry() const { return retry_; }

    const LinkStats& stats() const { return stats_; }

private:
    bool draw_error(std::size_t length, unsigned& bit);
    void count_flow_control(Time now, uint32_t chars);

    // What a packet's send reads and writes first, in three cache lines (the link is
    // aligned to them). In their order before, those fields spread over all four lines of
    // the link and often five, and on a 2,048-node halo each line of the links a message
    // crosses was one more to miss in the modelled L2.
    // The first line: whether and when the cable is free, and a packet's serialization,
    // ceil(wire bytes × ps_num_ / ps_den_) ps, the fraction being max_payload × 1e12 /
    // ((max_payload + overhead) × payload rate) in lowest terms (or 1e12 / wire rate);
    // max_wire_64_ is the longest packet whose product fits.
    Time busy_until_{};
    Time latency_;
    int64_t overhead_bytes_;
    int64_t ps_num_ = 1;
    int64_t max_wire_64_ = 0;
    Time end_time_{};       // the end-of-packet token
    Time fct_time_{};       // one flow-control token; zero when FCTs are not modelled
    bool retry_;
    // The second: the fraction's denominator and what each send counts.
    sim::Divisor<uint64_t> ps_den_ = 1;
    LinkStats stats_;
    // The third: the credits, and the error table each send looks at.
    std::array<uint32_t, kMaxVcs> credits_{};
    // P(no error in a packet of payload length L), by repeated multiplication so the
    // table is identical on every libm; empty when the link is error-free.
    std::vector<double> p_clean_;
    uint32_t vcs_;
    uint32_t credits_per_vc_;
    // The rest.
    LinkId id_;
    uint32_t max_payload_;
    uint32_t fct_chars_ = 0;
    uint32_t fct_pending_chars_ = 0;  // freed characters not yet worth a whole FCT
    Time fct_owed_{};       // FCT time owed by a held link, paid when it is released
    double bit_error_rate_ = 0.0;
    sim::Random random_;
};

}  // namespace niclab::net
