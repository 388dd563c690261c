// The bulk-transfer fast path (SystemSpec "lanes": a message's packets fire as one train
// from the network's kernel lane while the NIC cores sleep) against
// packet-by-packet simulation through the heap ("lanes": false). Every timestamp must be
// the same: every span of activity the parts record (each packet from injection to
// delivery, each DMA transfer, every function the firmware ran, the hosts' library
// code and interrupts), every result the hosts see and when, the kernel's counts of
// events, and every byte received. On a direct cable uncontended (one way), both ways at
// once, and with the receiver's buffering so small that it refuses packets, the network
// holds them and the sender runs out of credits; and across a mesh, both ways between
// far corners, the two trains crossing in its routers. Likewise a NIC's packets sent
// ahead on its busy cable, and the TX engine's injected ahead of their time while their
// data streams in ("send_ahead"), against each waiting for the cable's wake-up and the
// engine's event, with fewer events.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "niclab/host/process.hpp"
#include "niclab/sim/activity.hpp"
#include "niclab/systems/seastar/raw_nic.hpp"
#include "niclab/systems/seastar/seastar.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/system/system.hpp"
#include "raw_test_support.hpp"

namespace niclab::test {
namespace {

using Span = std::tuple<int64_t, int64_t, uint32_t, int, uint32_t, uint32_t>;
using Seen = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, int64_t>;  // node, tag, status, bytes, when

struct Outcome {
    std::vector<Span> spans;
    std::vector<Seen> results;
    std::vector<bool> intact;
    uint64_t events_fired = 0, events_scheduled = 0, from_lanes = 0;
    uint64_t refused = 0, injections_refused = 0, packets = 0;
    int64_t end = 0;
};

struct Scenario {
    uint32_t nodes = 2, a = 0, b = 1;  // the messages go from a to b (and b to a)
    nlohmann::json topology;
    bool both_ways = false;
    uint32_t messages = 3, length = 200 * 1024;
    nlohmann::json set = nlohmann::json::object();
    Time post_after{};  // the receivers post their buffers this late
};

Outcome run(bool lanes, const Scenario& sc, bool send_ahead = true) {
    system::SystemSpec spec = raw::spec_for(sc.nodes, sc.topology, 0, sc.set);
    spec.lanes = lanes;
    spec.send_ahead = send_ahead;
    system::System sys(spec);
    sim::ActivityLog log;
    sys.kernel().set_activity(&log);
    constexpr uint64_t kSrc = 0x100003, kDst = 0x4000005;
    const uint64_t stride = (uint64_t(sc.length) + 0x1000) & ~uint64_t(0xFFF);
    Outcome o;
    std::vector<std::unique_ptr<seastar::RawNic>> nics;
    std::vector<std::unique_ptr<host::Process>> procs;
    for (uint32_t n = 0; n < sc.nodes; ++n)
        nics.push_back(std::make_unique<seastar::RawNic>(seastar::seastar_nic(sys, n), sys.host_cpu(n)));
    for (uint32_t way = 0; way < (sc.both_ways ? 2u : 1u); ++way) {
        const uint32_t src = way ? sc.b : sc.a, dst = way ? sc.a : sc.b;
        for (uint32_t i = 0; i < sc.messages; ++i) {
            sys.host_memory(src).write(kSrc + i * stride, pattern(sc.length, i + 7 * way + 1));
            sys.host_memory(dst).fill(kDst + i * stride, 0xEE, stride);
        }
        procs.push_back(std::make_unique<host::Process>(sys.host_cpu(dst), "receiver", [&, dst](host::ProcessContext& ctx) {
            if (sc.post_after > Time{}) ctx.sleep_for(sc.post_after);
            for (uint32_t i = 0; i < sc.messages; ++i) nics[dst]->post_receive(ctx, kDst + i * stride, sc.length, i);
            for (uint32_t i = 0; i < sc.messages; ++i) {
                const seastar::RawResult r = nics[dst]->wait(ctx);
                o.results.emplace_back(dst, r.tag, r.status, r.bytes, r.when.ps());
            }
        }));
        procs.push_back(std::make_unique<host::Process>(sys.host_cpu(src), "sender", [&, src, dst](host::ProcessContext& ctx) {
            for (uint32_t i = 0; i < sc.messages; ++i) nics[src]->send(ctx, dst, kSrc + i * stride, sc.length, 100 + i);
            for (uint32_t i = 0; i < sc.messages; ++i) {
                const seastar::RawResult r = nics[src]->wait(ctx);
                o.results.emplace_back(src, r.tag, r.status, r.bytes, r.when.ps());
            }
        }));
    }
    sys.run_until(Time::max());
    for (auto& p : procs) {
        p->rethrow_if_failed();
        EXPECT_TRUE(p->done()) << p->name() << " did not finish";
    }
    for (uint32_t way = 0; way < (sc.both_ways ? 2u : 1u); ++way)
        for (uint32_t i = 0; i < sc.messages; ++i) {
            std::vector<uint8_t> got(sc.length);
            sys.host_memory(way ? sc.a : sc.b).read(kDst + i * stride, got);
            o.intact.push_back(got == pattern(sc.length, i + 7 * way + 1));
        }
    for (const sim::ActivitySpan& s : log.spans())
        o.spans.emplace_back(s.start.ps(), s.end.ps(), s.node, int(s.kind), s.detail, s.peer);
    o.events_fired = sys.kernel().events_fired();
    o.events_scheduled = sys.kernel().events_scheduled();
    o.from_lanes = sys.kernel().lane_events_fired();
    o.injections_refused = sys.network()->stats().injections_refused;
    o.packets = sys.network()->stats().packets_injected;
    o.refused = sys.network()->stats().deliveries_refused;
    o.end = sys.kernel().now().ps();
    return o;
}

// Every span, result, byte, refusal and the end the same.
void same_timestamps(const Outcome& a, const Outcome& b) {
    ASSERT_EQ(b.spans.size(), a.spans.size());
    for (size_t i = 0; i < a.spans.size(); ++i) ASSERT_EQ(b.spans[i], a.spans[i]) << "span " << i;
    EXPECT_EQ(b.results, a.results);
    EXPECT_EQ(b.intact, a.intact);
    for (bool ok : b.intact) EXPECT_TRUE(ok);
    EXPECT_EQ(b.refused, a.refused);
    EXPECT_EQ(b.injections_refused, a.injections_refused);
    EXPECT_EQ(b.end, a.end);
}

void same_either_way(const Scenario& sc) {
    const Outcome heap = run(false, sc), lanes = run(true, sc);
    same_timestamps(heap, lanes);
    EXPECT_EQ(lanes.events_fired, heap.events_fired);
    EXPECT_EQ(lanes.events_scheduled, heap.events_scheduled);
    EXPECT_EQ(heap.from_lanes, 0u);
    // Most packets' events came straight from the lanes: a 200 KB message is 3,200 packets.
    EXPECT_GT(lanes.from_lanes, lanes.events_fired / 2) << lanes.from_lanes << " of " << lanes.events_fired;
}

TEST(RawLanes, OneWayEveryTimestampIsTheSameAsPacketByPacket) { same_either_way(Scenario{}); }

// The core's runs fall elsewhere once the kernel has fewer events to stop them at, and
// a firmware span ends with its run (Cpu::execute): the same execution, cut elsewhere
// and written down in another order. So a span of a function that goes on where that
// node's last one ended joins it, and spans and results are compared sorted.
Outcome joined_and_sorted(Outcome o) {
    std::vector<Span> joined;
    std::vector<std::pair<uint32_t, size_t>> last;  // node, its last firmware span in `joined`
    for (const Span& s : o.spans) {
        const auto [start, end, node, kind, detail, peer] = s;
        if (kind == int(sim::Activity::Firmware)) {
            auto it = std::find_if(last.begin(), last.end(), [node = node](const auto& l) { return l.first == node; });
            if (it != last.end() && std::get<1>(joined[it->second]) == start && std::get<4>(joined[it->second]) == detail) {
                std::get<1>(joined[it->second]) = end;
                continue;
            }
            if (it == last.end()) last.emplace_back(node, joined.size());
            else it->second = joined.size();
        }
        joined.push_back(s);
    }
    std::sort(joined.begin(), joined.end());
    o.spans = std::move(joined);
    std::sort(o.results.begin(), o.results.end());
    return o;
}

// Sent ahead or each packet waiting for its cable's wake-up; lanes on (and off, which
// sends ahead from the heap's events too).
void same_sent_ahead_or_not(const Scenario& sc) {
    for (bool lanes : {true, false}) {
        SCOPED_TRACE(lanes ? "lanes" : "heap");
        const Outcome waiting = run(lanes, sc, false), ahead = run(lanes, sc, true);
        same_timestamps(joined_and_sorted(waiting), joined_and_sorted(ahead));
        // Spared: the cables' wake-ups, and the TX engine's event per packet (injected ahead).
        EXPECT_GT(waiting.events_fired, ahead.events_fired + ahead.packets)
            << ahead.events_fired << " events against " << waiting.events_fired << " for " << ahead.packets << " packets";
    }
}

TEST(RawSendAhead, OneWayEveryTimestampIsTheSame) { same_sent_ahead_or_not(Scenario{}); }

TEST(RawLanes, BothWaysAtOnceEveryTimestampIsTheSame) {
    Scenario sc;
    sc.both_ways = true;
    same_either_way(sc);
}

TEST(RawLanes, RefusedPacketsAndCreditsRunningOutEveryTimestampIsTheSame) {
    // Buffers posted 30 us late, and 256 bytes of buffering per message before its deposit
    // commands come: the receiver refuses, the network holds the packets, the sender waits
    // for credits.
    Scenario sc;
    sc.both_ways = true;
    sc.set = {{"dma.rx_buffer_bytes", 256}};
    sc.post_after = Time::us(30);
    const Outcome heap = run(false, sc);
    EXPECT_GT(heap.refused, 0u);
    EXPECT_GT(heap.injections_refused, 0u);
    same_either_way(sc);
    same_sent_ahead_or_not(sc);
}

TEST(RawLanes, AcrossAMeshBothWaysEveryTimestampIsTheSame) {
    Scenario sc;
    sc.nodes = 8;
    sc.topology = {{"kind", "mesh"}, {"dims", {2, 2, 2}}};
    sc.a = 0;
    sc.b = 7;
    sc.both_ways = true;
    same_either_way(sc);
    same_sent_ahead_or_not(sc);
}

TEST(RawLanes, LanesOrSendAheadOffIsRecordedInTheSpec) {
    EXPECT_FALSE(system::SystemSpec{}.to_json().contains("lanes"));
    const system::SystemSpec off = system::SystemSpec::from_json({{"lanes", false}});
    EXPECT_FALSE(off.lanes);
    EXPECT_EQ(off.to_json().at("lanes"), false);
    EXPECT_THROW(system::SystemSpec::from_json({{"lanes", "no"}}), system::ConfigError);
    EXPECT_FALSE(system::SystemSpec{}.to_json().contains("send_ahead"));
    const system::SystemSpec waiting = system::SystemSpec::from_json({{"send_ahead", false}});
    EXPECT_FALSE(waiting.send_ahead);
    EXPECT_EQ(waiting.to_json().at("send_ahead"), false);
    EXPECT_THROW(system::SystemSpec::from_json({{"send_ahead", 1}}), system::ConfigError);
}

}  // namespace
}  // namespace niclab::test
