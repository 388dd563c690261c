#include "niclab/net/link.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "niclab/net/network_error.hpp"

namespace niclab::net {

// Four lines, the first three what a send touches (link.hpp): a field added to the hot
// ones that pushed them past three would be a line more on every hop.
static_assert(alignof(Link) == 64 && sizeof(Link) == 256);

Link::Link(LinkId id, const LinkParams& params, uint32_t vcs, uint32_t credits_per_vc, uint64_t seed,
           uint32_t max_payload)
    : latency_(params.latency),
      overhead_bytes_(params.overhead_bytes),
      retry_(params.link_retry),
      vcs_(vcs),
      credits_per_vc_(credits_per_vc),
      id_(id),
      max_payload_(max_payload),
      random_(seed, "net.link." + std::to_string(id)) {
    // Bounds that keep the serialization fraction's terms inside 64 bits.
    const uint64_t rate = params.wire_bits_per_s ? params.wire_bits_per_s / 8
                          : params.wire_bytes_per_s ? params.wire_bytes_per_s
                                                    : params.payload_bytes_per_s;
    if (rate == 0 || rate > 1'000'000'000'000) throw NetworkError("link bandwidth must be between 1 B/s and 1 TB/s");
    if (params.wire_bits_per_s) {
        if (params.token_bits < 8 || params.token_bits > 64)
            throw NetworkError("a character token of " + std::to_string(params.token_bits) + " bits outside 8..64");
        if (params.end_bits > 64 || params.fct_bits > 64)
            throw NetworkError("end and flow-control tokens longer than 64 bits");
        if (params.fct_bits && params.fct_chars == 0)
            throw NetworkError("a flow-control token must stand for at least one character (fct_chars)");
    }
    if (params.overhead_bytes > 4096) throw NetworkError("link overhead above 4096 bytes per packet");
    if (max_payload == 0 || max_payload > PacketHeader::kMaxPayloadLimit)
        throw NetworkError("link payload capacity of " + std::to_string(max_payload) + " bytes outside 1..4096");
    if (params.latency < Time{}) throw NetworkError("link latency must not be negative");
    if (vcs == 0 || vcs > kMaxVcs)
        throw NetworkError("a link has 1 to " + std::to_string(kMaxVcs) + " virtual channels, not " + std::to_string(vcs));
    if (credits_per_vc == 0) throw NetworkError("a link needs at least one buffer (credit) per virtual channel");
    for (uint32_t v = 0; v < vcs; ++v) credits_[v] = credits_per_vc;
    int64_t num, den;  // the fraction, reduced below
    if (params.wire_bits_per_s) {
        num = int64_t(params.token_bits) * 1'000'000'000'000;
        den = int64_t(params.wire_bits_per_s);
        auto bits = [&](uint32_t n) {
            return Time::ps((int64_t(n) * 1'000'000'000'000 + den - 1) / den);
        };
        end_time_ = bits(params.end_bits);
        fct_time_ = bits(params.fct_bits);
        fct_chars_ = params.fct_chars;
    } else if (params.wire_bytes_per_s) {
        num = 1'000'000'000'000;
        den = int64_t(params.wire_bytes_per_s);
    } else {
        num = int64_t(max_payload) * 1'000'000'000'000;
        den = int64_t(max_payload + params.overhead_bytes) * int64_t(params.payload_bytes_per_s);
    }
    const int64_t g = std::gcd(num, den);
    ps_num_ = num / g;
    ps_den_ = uint64_t(den / g);
    max_wire_64_ = (std::numeric_limits<int64_t>::max() - int64_t(ps_den_.value())) / ps_num_;
    set_bit_error_rate(params.bit_error_rate);
}

void Link::count_flow_control(Time now, uint32_t chars) {
    fct_pending_chars_ += chars;
    const uint32_t fcts = fct_pending_chars_ / fct_chars_;
    fct_pending_chars_ %= fct_chars_;
    if (fcts == 0) return;
    const Time t = fct_time_ * int64_t(fcts);
    stats_.busy += t;
    if (held()) fct_owed_ += t;
    else busy_until_ = std::max(busy_until_, now) + t;
}

void Link::set_bit_error_rate(double ber) {
    // Above 1e-2 a full packet almost never gets through and retry would spin.
    if (!(ber >= 0.0 && ber <= 1e-2))
        throw NetworkError("bit error rate " + std::to_string(ber) + " outside [0, 1e-2]");
    bit_error_rate_ = ber;
    p_clean_.clear();
    if (ber == 0.0) return;
    p_clean_.resize(max_payload_ + 1);
    double p = 1.0;
    const double bit_ok = 1.0 - ber;
    for (unsigned len = 0; len <= max_payload_; ++len) {
        p_clean_[len] = p;
        for (int b = 0; b < 8; ++b) p *= bit_ok;
    }
}

// Errors are drawn over the payload bits only: a flipped header bit would need
// misrouting semantics this model does not have. At most one bit per copy is
// flipped (two errors in one packet are negligible at realistic rates).
bool Link::draw_error(std::size_t length, unsigned& bit) {
    if (p_clean_.empty() || length == 0) return false;
    if (random_.uniform() < p_clean_[length]) return false;
    bit = unsigned(random_.below(uint64_t(length) * 8));
    return true;
}

Transmission Link::transmit(Time start, const PacketHeader& h, std::span<uint8_t> payload) {
    const Time ser = serialization(unsigned(payload.size()));
    Transmission t;
    Time offset{};
    unsigned bit = 0;
    while (!p_clean_.empty() && draw_error(payload.size(), bit)) {  // no call on an error-free link
        // The flip is made in place and undone when the CRC catches it, so a long
        // packet is not copied per error.
        payload[bit / 8] ^= uint8_t(1u << (bit % 8));
        if (retry_ && compute_link_crc(h, payload) != h.link_crc) {
            payload[bit / 8] ^= uint8_t(1u << (bit % 8));
            ++t.retries;
            offset += ser + latency_ * 2;
            continue;
        }
        // Retry off, or an error the CRC cannot see (never for one bit): passed on.
        t.corrupted = true;
        break;
    }
    t.head_arrival = start + offset + latency_;
    t.tail_arrival = t.head_arrival + ser;
    t.free_at = start + offset + ser;
    busy_until_ = t.free_at;

    ++stats_.packets;
    stats_.payload_bytes += payload.size();
    stats_.retries += t.retries;
    stats_.corrupted += t.corrupted ? 1 : 0;
    stats_.busy += t.free_at - start;
    return t;
}

}  // namespace niclab::net
