#include "niclab/net/link.hpp"

#include <string>

#include "niclab/net/network_error.hpp"

namespace niclab::net {

Link::Link(LinkId id, const LinkParams& params, uint32_t vcs, uint32_t credits_per_vc, uint64_t seed)
    : id_(id),
      latency_(params.latency),
      retry_(params.link_retry),
      vcs_(vcs),
      credits_per_vc_(credits_per_vc),
      overhead_bytes_(params.overhead_bytes),
      wire_rate_(int64_t(Packet::kMaxPayload + params.overhead_bytes) * int64_t(params.payload_bytes_per_s)),
      random_(seed, "net.link." + std::to_string(id)) {
    // Bounds that keep the serialization arithmetic inside 64 bits.
    if (params.payload_bytes_per_s == 0 || params.payload_bytes_per_s > 1'000'000'000'000)
        throw NetworkError("link bandwidth must be between 1 B/s and 1 TB/s");
    if (params.overhead_bytes > 4096) throw NetworkError("link overhead above 4096 bytes per packet");
    if (params.latency < Time{}) throw NetworkError("link latency must not be negative");
    if (vcs == 0 || vcs > kMaxVcs) throw NetworkError("a link has 1 or 2 virtual channels");
    if (credits_per_vc == 0) throw NetworkError("a link needs at least one buffer (credit) per virtual channel");
    for (uint32_t v = 0; v < vcs; ++v) credits_[v] = credits_per_vc;
    set_bit_error_rate(params.bit_error_rate);
}

void Link::set_bit_error_rate(double ber) {
    // Above 1e-2 a full packet almost never gets through and retry would spin.
    if (!(ber >= 0.0 && ber <= 1e-2))
        throw NetworkError("bit error rate " + std::to_string(ber) + " outside [0, 1e-2]");
    bit_error_rate_ = ber;
    p_clean_.clear();
    if (ber == 0.0) return;
    p_clean_.resize(Packet::kMaxPayload + 1);
    double p = 1.0;
    const double bit_ok = 1.0 - ber;
    for (unsigned len = 0; len <= Packet::kMaxPayload; ++len) {
        p_clean_[len] = p;
        for (int b = 0; b < 8; ++b) p *= bit_ok;
    }
}

// Errors are drawn over the payload bits only: a flipped header bit would need
// misrouting semantics this model does not have. At most one bit per copy is
// flipped (two errors in 512 bits are negligible at realistic rates).
bool Link::draw_error(const Packet& p, unsigned& bit) {
    if (p_clean_.empty() || p.length == 0) return false;
    if (random_.uniform() < p_clean_[p.length]) return false;
    bit = unsigned(random_.below(uint64_t(p.length) * 8));
    return true;
}

Transmission Link::transmit(Time start, Packet& p) {
    const Time ser = serialization(p.length);
    Transmission t;
    Time offset{};
    unsigned bit = 0;
    while (draw_error(p, bit)) {
        if (retry_) {
            Packet copy = p;
            copy.payload[bit / 8] ^= uint8_t(1u << (bit % 8));
            if (compute_link_crc(copy) != p.link_crc) {
                ++t.retries;
                offset += ser + latency_ * 2;
                continue;
            }
            p = copy;  // an error the CRC cannot see (never for one bit): passed on
        } else {
            p.payload[bit / 8] ^= uint8_t(1u << (bit % 8));
        }
        t.corrupted = true;
        break;
    }
    t.head_arrival = start + offset + latency_;
    t.tail_arrival = t.head_arrival + ser;
    t.free_at = start + offset + ser;
    busy_until_ = t.free_at;

    ++stats_.packets;
    stats_.payload_bytes += p.length;
    stats_.retries += t.retries;
    stats_.corrupted += t.corrupted ? 1 : 0;
    stats_.busy += t.free_at - start;
    return t;
}

}  // namespace niclab::net
