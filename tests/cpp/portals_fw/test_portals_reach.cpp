// The kernel's reach on the SeaStar (sim::Kernel::set_reach, seastar::RxDma::set_reach):
// while a NIC holds back no packet, what its core does reaches another node no sooner
// than a host read plus a cable, and the other cores run that far past it; and its router
// delay (sim::Kernel::set_router_delay): its router's events, and through them every other
// node's, reach its core a cable late. Neither may move time: an incast on the tiny pools,
// where the receiver's RX engine makes the network hold packets again and again (and its
// core lets them in), runs with them and without (the kernel's plain lookahead), and every
// span of every part and every arrival is the same. So neither may NIC cores running ahead
// of their horizons (SystemSpec::run_ahead) on the same incast.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>

#include "niclab/net/network.hpp"
#include "niclab/sim/activity.hpp"
#include "portals_harness.hpp"

namespace niclab::test {
namespace {

using ptl::Incoming;
using ptl::NodeScript;

constexpr uint32_t kSenders = 3, kMessages = 4, kBytes = 8192;

struct Spans {
    std::vector<std::tuple<uint32_t, int, std::string, uint32_t, int64_t, int64_t>> spans;  // node, kind, detail, peer, start, end
    std::vector<std::tuple<uint32_t, uint32_t, int64_t, int64_t>> arrivals;             // src, tag, announced, done
    uint64_t refusals = 0;
    uint64_t runs = 0;  // of the cores: where the kernel stopped them, all it may change
    std::vector<uint64_t> cores;  // each NIC core's cycles, instructions and stalls at the end
    bool finished = true;
};

// Firmware spans end where a core's run ends, which is what the reach moves: spans of
// one part that follow on without a gap are one. Details by name (the log numbers them
// in the order the cores first ran them).
void add_merged(Spans& out, const sim::ActivityLog& log) {
    std::vector<sim::ActivitySpan> v = log.spans();
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
        return std::tie(a.node, a.kind, a.start) < std::tie(b.node, b.kind, b.start);
    });
    for (const auto& s : v) {
        if (!out.spans.empty()) {
            auto& [node, kind, detail, peer, start, end] = out.spans.back();
            if (node == s.node && kind == int(s.kind) && detail == log.name(s.detail) && peer == s.peer && end == s.start.ps()) {
                end = s.end.ps();
                continue;
            }
        }
        out.spans.emplace_back(s.node, int(s.kind), log.name(s.detail), s.peer, s.start.ps(), s.end.ps());
    }
}

// Every node sends kMessages to node 0 (the incast); with `both`, node 0 sends as many
// to each of them at the same time, so cores are busy on both sides of held packets.
// `run_ahead` given: that, and no spans (a core records them only when it does not run ahead).
Spans incast(bool reach, bool both = false, bool router = true, std::optional<bool> run_ahead = std::nullopt) {
    system::SystemSpec spec = ptl::spec(kSenders + 1, "portals_tiny");
    if (run_ahead) spec.run_ahead = *run_ahead;
    system::System sys(spec);
    sys.kernel().set_reach_hints(reach);
    EXPECT_GT(sys.network()->router_delay(0), Time{}) << "each SeaStar has its router";
    if (!router)
        for (uint32_t n = 0; n <= kSenders; ++n) sys.kernel().set_router_delay(n, Time{});
    sim::ActivityLog log;
    if (!run_ahead) sys.kernel().set_activity(&log);
    std::map<uint32_t, NodeScript> senders;
    NodeScript rx;
    rx.expect_rx = kSenders * kMessages;
    rx.place = [](const Incoming& in) { return ptl::Placement{0x400000 + uint64_t(in.hdr.match_bits_lo) * 0x4000, kBytes, {}}; };
    std::map<uint32_t, NodeScript*> scripts{{0, &rx}};
    for (uint32_t s = 1; s <= kSenders; ++s) {
        for (uint32_t i = 0; i < kMessages; ++i) senders[s].sends.push_back({0, s * kMessages + i, 0x100000 + i * 0x4000, kBytes, {}, {}});
        if (both) {
            for (uint32_t i = 0; i < kMessages; ++i) rx.sends.push_back({s, 0x100 + s * kMessages + i, 0x100000 + i * 0x4000, kBytes, {}, {}});
            senders[s].expect_rx = kMessages;
            senders[s].place = rx.place;
        }
        scripts[s] = &senders[s];
    }
    ptl::run(sys, scripts);
    sys.kernel().set_activity(nullptr);
    Spans out;
    add_merged(out, log);
    for (const Incoming& in : rx.received) out.arrivals.emplace_back(in.src, in.hdr.match_bits_lo, in.announced.ps(), in.done.ps());
    out.refusals = seastar::seastar_nic(sys, 0).rx_dma().refusals();
    out.runs = sys.kernel().runnable_runs();
    for (uint32_t n = 0; n <= kSenders; ++n) {
        const core::Cpu& c = sys.nic(n).cpu();
        out.cores.insert(out.cores.end(), {c.cycles(), c.instret(), c.stall_cycles()});
    }
    out.finished = rx.finished;
    for (auto& [s, script] : senders) out.finished = out.finished && script.finished;
    return out;
}

TEST(PortalsReach, HeldPacketsAndTheReachMoveNoTime) {
    const Spans with = incast(true), without = incast(false);
    ASSERT_TRUE(with.finished && without.finished);
    EXPECT_GT(with.refusals, 10u) << "the network held packets for the receiver";
    EXPECT_EQ(with.refusals, without.refusals);
    EXPECT_EQ(with.arrivals.size(), size_t(kSenders * kMessages));
    EXPECT_EQ(with.arrivals, without.arrivals);
    ASSERT_EQ(with.spans.size(), without.spans.size());
    for (size_t i = 0; i < with.spans.size(); ++i) ASSERT_EQ(with.spans[i], without.spans[i]) << "span " << i;
}

TEST(PortalsReach, HeldPacketsBothWaysMoveNoTime) {
    const Spans with = incast(true, true), without = incast(false, true);
    ASSERT_TRUE(with.finished && without.finished);
    EXPECT_GT(with.refusals, 10u);
    EXPECT_EQ(with.arrivals, without.arrivals);
    ASSERT_EQ(with.spans.size(), without.spans.size());
    for (size_t i = 0; i < with.spans.size(); ++i) ASSERT_EQ(with.spans[i], without.spans[i]) << "span " << i;
}

TEST(PortalsReach, RouterDelaysMoveNoTime) {
    const Spans with = incast(true, true, true), without = incast(true, true, false);
    ASSERT_TRUE(with.finished && without.finished);
    EXPECT_GT(with.refusals, 10u);
    EXPECT_LT(with.runs, without.runs) << "the cores ran further between stops";
    EXPECT_EQ(with.arrivals, without.arrivals);
    ASSERT_EQ(with.spans.size(), without.spans.size());
    for (size_t i = 0; i < with.spans.size(); ++i) ASSERT_EQ(with.spans[i], without.spans[i]) << "span " << i;
}

TEST(PortalsReach, CoresRunningAheadMoveNoTime) {
    const Spans ahead = incast(true, true, true, true), plain = incast(true, true, true, false);
    ASSERT_TRUE(ahead.finished && plain.finished);
    EXPECT_GT(ahead.refusals, 10u);
    EXPECT_LT(ahead.runs * 10, plain.runs * 9) << "the cores ran no further between stops";
    EXPECT_EQ(ahead.refusals, plain.refusals);
    EXPECT_EQ(ahead.arrivals, plain.arrivals);
    EXPECT_EQ(ahead.cores, plain.cores);
}

}  // namespace
}  // namespace niclab::test
