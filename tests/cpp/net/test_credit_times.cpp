// Two ways the network spares events, each against the way it replaces, under contended
// random traffic: every packet arrives at the same picosecond and in the same order,
// every link is busy for as long, with fewer events.
// - Credits kept as times (NetworkParams::credit_events off) against an event per credit
//   per hop. The NICs' transmit cables keep theirs as times too: a refused NIC is told at
//   the same time.
// - A NIC's packet sent ahead on its busy cable (NetworkParams::send_ahead) against one
//   waiting in the NIC's queue for the cable's wake-up.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "net_test_nic.hpp"
#include "niclab/net/network_error.hpp"
#include "niclab/sim/random.hpp"

namespace niclab::net {
namespace {

struct Outcome {
    std::vector<std::tuple<NodeId, int64_t, NodeId, uint32_t, uint8_t>> deliveries;  // at, when, from, id, vnet
    std::vector<int64_t> busy_ps;  // per link
    uint64_t events = 0;
    uint64_t refused = 0;  // injections refused for want of a credit
    bool credits_back = true;
};

// Random: random lengths at random times. Regular: full packets sent in lock step, so
// that many events fall on one picosecond and their order decides.
enum class Traffic { Random, Regular };

Outcome run(const TopologySpec& spec, const NetworkParams& p, bool lookahead, Traffic traffic) {
    sim::Kernel k;
    Network net(k, spec, p);
    if (lookahead) k.set_lookahead(net.lookahead(), net.nodes(), net.neighbours());
    auto nics = testing::make_nics(net);
    // Bursts from every node at random times to random destinations: queues build up at
    // the routers' outputs and at the receivers, and credits run out.
    sim::Random rng(11, "traffic");
    std::vector<BasicPacket<64>> frames;
    constexpr int kPerNode = 100;
    const bool regular = traffic == Traffic::Regular;
    for (int i = 0; i < kPerNode; ++i)
        for (NodeId s = 0; s < net.nodes(); ++s) {
            NodeId d = regular ? NodeId((s + 1 + i % 3) % net.nodes()) : NodeId(rng.below(net.nodes()));
            if (net.topology().routers() == 0) d = s ^ 1;  // a direct cable reaches its pair only
            const uint16_t length = regular ? 64 : uint16_t(rng.below(65));
            frames.push_back(testing::make_frame<64>(s, d, uint32_t(i), length, uint8_t(regular ? 0 : rng.below(p.vnets))));
        }
    for (size_t f = 0; f < frames.size(); ++f) {
        const NodeId s = frames[f].src;
        const Time at = regular ? Time::ns(int64_t(f / net.nodes() / 10 * 200)) : Time::ns(int64_t(rng.below(3000)));
        k.schedule_at(at, [&nics, &frames, f, s] { nics[s]->send(frames[f]); }, s);
    }
    k.run_until(Time::ms(20));
    Outcome o;
    for (NodeId d = 0; d < net.nodes(); ++d)
        for (const auto& got : nics[d]->log)
            o.deliveries.emplace_back(d, got.at.ps(), got.packet.src, got.packet.message_id, got.packet.vnet);
    for (const Link& l : net.links()) {
        o.busy_ps.push_back(l.stats().busy.ps());
        for (uint32_t v = 0; v < l.vcs(); ++v) o.credits_back = o.credits_back && net.credits(l.id(), v) == l.credits_per_vc();
    }
    o.events = k.events_fired();
    o.refused = net.stats().injections_refused;
    EXPECT_EQ(o.deliveries.size(), frames.size());
    EXPECT_EQ(net.packets_in_flight(), 0u);
    return o;
}

// `fewer` spares events that `more` fires.
void same_times(const TopologySpec& spec, const NetworkParams& more, const NetworkParams& fewer, bool lookahead,
                Traffic traffic) {
    SCOPED_TRACE(traffic == Traffic::Random ? "random traffic" : "regular traffic");
    const Outcome events = run(spec, more, lookahead, traffic);
    const Outcome times = run(spec, fewer, lookahead, traffic);
    ASSERT_EQ(times.deliveries.size(), events.deliveries.size());
    for (size_t i = 0; i < events.deliveries.size(); ++i)
        ASSERT_EQ(times.deliveries[i], events.deliveries[i]) << "delivery " << i;
    EXPECT_EQ(times.busy_ps, events.busy_ps);
    EXPECT_EQ(times.refused, events.refused);
    EXPECT_TRUE(times.credits_back);
    EXPECT_TRUE(events.credits_back);
    EXPECT_LT(times.events, events.events) << "the events nobody waited for should be spared";
}

NetworkParams with_credit_events(NetworkParams p) {
    p.credit_events = true;
    return p;
}

void same_times(const TopologySpec& spec, const NetworkParams& more, const NetworkParams& fewer, bool lookahead) {
    for (Traffic traffic : {Traffic::Random, Traffic::Regular}) same_times(spec, more, fewer, lookahead, traffic);
}

void same_times(const TopologySpec& spec, const NetworkParams& p, bool lookahead = false) {
    same_times(spec, with_credit_events(p), p, lookahead);
}

NetworkParams waiting_for_wake_ups(NetworkParams p) {
    p.send_ahead = false;
    return p;
}

void same_times_sent_ahead(const TopologySpec& spec, const NetworkParams& p, bool lookahead = false) {
    same_times(spec, waiting_for_wake_ups(p), p, lookahead);
}

NetworkParams contended(uint32_t vnets = 2) {
    NetworkParams p;
    p.vnets = vnets;
    p.input_buffers = 2;
    p.receive_buffers = 2;
    return p;
}

TEST(CreditsAsTimes, SameTimesOnATorusWithDatelineChannelsAndTwoVnets) { same_times(Mesh3D::red_storm(3, 3, 4), contended()); }

TEST(CreditsAsTimes, SameTimesWithTheKernelsLookahead) { same_times(Mesh3D{{4, 4, 2}, {}}, contended(1), true); }

TEST(CreditsAsTimes, SameTimesOnAFatTreeWithAdaptiveUpRouting) {
    NetworkParams p = contended();
    p.adaptive_up_routing = true;
    same_times(FatTree::with_radix(8), p);
}

TEST(CreditsAsTimes, SameTimesWithCreditsInFlits) {
    NetworkParams p = contended(1);
    p.flit_bytes = 16;
    p.input_buffers = 7;  // a full packet's 90 wire bytes are 6 flits
    p.receive_buffers = 6;
    same_times(Mesh3D{{4, 4, 2}, {}}, p);
}

// No router at all: every credit is a NIC's, and with two receive buffers per vnet the
// senders are refused again and again and must hear of each return at its time.
TEST(CreditsAsTimes, SameTimesOnDirectCablesWhereEveryCreditIsANics) {
    EXPECT_GT(run(DirectCable{3}, contended(), false, Traffic::Random).refused, 0u)
        << "the test must make the NICs wait for credits";
    same_times(DirectCable{3}, contended(), true);
}

TEST(CreditsAsTimes, AnUnknownLinkOrChannelIsANetworkErrorNamingIt) {
    sim::Kernel k;
    Network net(k, Mesh3D{{2, 2, 1}, {}}, NetworkParams{});
    const LinkId links = LinkId(net.links().size());
    EXPECT_EQ(net.credits(0, 0), net.link(0).credits(0));
    try {
        net.credits(links, 0);
        FAIL() << "no error for link " << links;
    } catch (const NetworkError& e) {
        EXPECT_NE(std::string(e.what()).find("link " + std::to_string(links) + " does not exist"), std::string::npos) << e.what();
    }
    try {
        net.credits(0, net.link(0).vcs());
        FAIL() << "no error for a channel past the last";
    } catch (const NetworkError& e) {
        EXPECT_NE(std::string(e.what()).find("not a channel " + std::to_string(net.link(0).vcs())), std::string::npos) << e.what();
    }
}

// One vnet (a second would let a later packet pass a queued one, so nothing is sent ahead
// there): NICs refused for want of credits, bursts behind busy cables, on direct cables,
// a mesh with the kernel's lookahead, and a torus with its dateline channels.
TEST(SendAhead, SameTimesOnDirectCablesWithTheSendersRefused) {
    EXPECT_GT(run(DirectCable{3}, contended(1), false, Traffic::Random).refused, 0u)
        << "the test must make the NICs wait for credits";
    same_times_sent_ahead(DirectCable{3}, contended(1), true);
}

TEST(SendAhead, SameTimesOnAMeshWithTheKernelsLookahead) { same_times_sent_ahead(Mesh3D{{4, 4, 2}, {}}, contended(1), true); }

TEST(SendAhead, SameTimesOnATorusWithEventsPerCredit) {
    same_times_sent_ahead(Mesh3D::red_storm(3, 3, 4), with_credit_events(contended(1)));
}

TEST(SendAhead, TwoVnetsWaitForTheWakeUp) {
    const Outcome ahead = run(DirectCable{3}, contended(2), false, Traffic::Random);
    const Outcome waiting = run(DirectCable{3}, waiting_for_wake_ups(contended(2)), false, Traffic::Random);
    EXPECT_EQ(ahead.deliveries, waiting.deliveries);
    EXPECT_EQ(ahead.events, waiting.events) << "with two vnets a packet on a busy cable must wait in its queue";
}

// Sent ahead, a packet's arrival keeps the place among the events of its time that the
// wake-up at its start would have given it: after an event the receiving node had made
// before that start (here one that counts the packets in), as without sending ahead.
TEST(SendAhead, AnArrivalKeepsItsPlaceAfterEventsMadeBeforeItsStart) {
    for (bool ahead : {true, false}) {
        SCOPED_TRACE(ahead ? "sent ahead" : "waiting for the wake-up");
        sim::Kernel k;
        NetworkParams p;
        p.send_ahead = ahead;
        Network net(k, DirectCable{1}, p);
        auto nics = testing::make_nics(net);
        const Link& cable = net.link(net.injection_link(0));
        const Time start = cable.serialization(64);  // the second packet's, behind the first
        const Time arrival = start + cable.latency() + cable.serialization(64);
        size_t counted = 99;
        k.schedule_at(Time{}, [&] {
            nics[0]->send(testing::make_frame<64>(0, 1, 1, 64));
            nics[0]->send(testing::make_frame<64>(0, 1, 2, 64));
        }, 0);
        k.schedule_at(start - Time::ps(1), [&] {
            k.schedule_at(arrival, [&] { counted = nics[1]->log.size(); }, 1);
        }, 1);
        k.run_until(Time::ms(1));
        ASSERT_EQ(nics[1]->log.size(), 2u);
        EXPECT_EQ(nics[1]->log[1].at, arrival);
        EXPECT_EQ(counted, 1u) << "the second packet's arrival came before an event made before it started";
    }
}

}  // namespace
}  // namespace niclab::net
