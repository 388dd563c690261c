#pragma once
// Helpers for the Portals library tests: two (or more) Library objects stand for the
// initiator and the target, and the tests carry the Send headers between them by hand
// the way the NAL would: parse() the header at the other side, then report the
// deposit (receive_done) or the transmit (send_done) finished.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "niclab/msg/portals/library.hpp"

namespace niclab::portals::test {

inline constexpr ptl_process_id_t kInitiator{1, 5};
inline constexpr ptl_process_id_t kTarget{2, 7};
inline constexpr ptl_pt_index_t kPortal = 4;

inline Time at(int64_t ns) { return Time::ns(ns); }

// Every event waiting in `eq`, oldest first.
inline std::vector<ptl_event_t> drain(Library& lib, ptl_handle_eq_t eq) {
    std::vector<ptl_event_t> out;
    ptl_event_t ev;
    while (lib.eq_get(eq, ev) != PTL_EQ_EMPTY) out.push_back(ev);
    return out;
}

inline std::vector<ptl_event_kind_t> kinds(const std::vector<ptl_event_t>& events) {
    std::vector<ptl_event_kind_t> out;
    for (const auto& e : events) out.push_back(e.type);
    return out;
}

inline std::string names(const std::vector<ptl_event_kind_t>& ks) {
    std::string s;
    for (auto k : ks) s += std::string(s.empty() ? "" : " ") + ptl_event_str(k);
    return s;
}

inline ptl_md_t contiguous(uint64_t start, ptl_size_t length, unsigned options, ptl_handle_eq_t eq,
                           int threshold = PTL_MD_THRESH_INF) {
    return ptl_md(start, length, options, eq, threshold);
}

inline ptl_match_bits_t bits_of(const ptl_hdr& h) { return (uint64_t(h.match_bits_hi) << 32) | h.match_bits_lo; }

// The target side of a put: parse, and when it deposits, finish the deposit.
// Returns the Receive and, through `ack`, the acknowledgement the target sends.
inline Receive deliver(Library& to, const Send& s, Time now, std::optional<Send>* ack = nullptr, bool ok = true) {
    Receive r = to.parse(s.hdr, s.hdr.src_nid, now);
    if (r.action == Receive::Action::deposit) {
        auto a = to.receive_done(r.op, ok, now);
        if (ack) *ack = std::move(a);
    }
    return r;
}

}  // namespace niclab::portals::test
