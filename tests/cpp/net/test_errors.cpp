// Bit errors: link-level retry hides them at a cost in time; without retry the
// corrupted payloads reach the NIC, where the end-to-end CRC catches them. And the
// whole network is deterministic for a seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <tuple>

#include "net_test_nic.hpp"
#include "niclab/net/network_error.hpp"
#include "niclab/sim/random.hpp"

namespace niclab::net {
namespace {

using testing::TestNic;
using testing::make_packet;
using testing::payload_intact;

struct TrafficRun {
    std::vector<std::tuple<int64_t, NodeId, NodeId, uint32_t>> deliveries;  // time, src, dst, id
    std::vector<std::tuple<NodeId, uint32_t, unsigned>> flipped_bits;     // src, id, bit
    uint64_t corrupted_seen = 0;
    uint64_t crc_failures = 0;
    NetworkStats stats;
    uint64_t link_retries = 0;
};

TrafficRun run_traffic(double ber, bool retry, uint64_t seed, int per_node = 100) {
    sim::Kernel k;
    NetworkParams p;
    p.seed = seed;
    p.link.bit_error_rate = ber;
    p.link.link_retry = retry;
    Network net(k, Mesh3D::red_storm(3, 3, 4), p);
    std::vector<std::unique_ptr<TestNic>> nics;
    for (NodeId n = 0; n < net.nodes(); ++n) nics.push_back(std::make_unique<TestNic>(net, n));
    sim::Random traffic(1234, "traffic");  // the same traffic whatever the network seed
    for (int i = 0; i < per_node; ++i)
        for (NodeId s = 0; s < net.nodes(); ++s)
            nics[s]->send(make_packet(s, NodeId(traffic.below(net.nodes())), uint32_t(i), 64));
    k.run_until(Time::ms(10));
    TrafficRun r;
    for (NodeId d = 0; d < net.nodes(); ++d)
        for (const auto& got : nics[d]->log) {
            const auto& pk = got.packet;
            r.deliveries.emplace_back(got.at.ps(), pk.src, d, pk.message_id);
            if (crc32(pk.data()) != pk.message_crc) ++r.crc_failures;
            if (payload_intact(pk)) continue;
            ++r.corrupted_seen;
            const Packet want = make_packet(pk.src, pk.dst, pk.message_id, pk.length);
            for (unsigned bit = 0; bit < 512; ++bit)
                if (((want.payload[bit / 8] ^ pk.payload[bit / 8]) >> (bit % 8)) & 1)
                    r.flipped_bits.emplace_back(pk.src, pk.message_id, bit);
        }
    std::sort(r.deliveries.begin(), r.deliveries.end());
    r.stats = net.stats();
    for (const Link& l : net.links()) r.link_retries += l.stats().retries;
    return r;
}

TEST(BitErrors, RetryHidesErrorsAtACostInTime) {
    const TrafficRun clean = run_traffic(0.0, true, 1);
    const TrafficRun noisy = run_traffic(2e-5, true, 1);  // ~1% of 64-byte packets hit per hop
    ASSERT_EQ(noisy.deliveries.size(), 36u * 100);
    EXPECT_EQ(noisy.corrupted_seen, 0u);
    EXPECT_EQ(noisy.crc_failures, 0u);
    EXPECT_EQ(noisy.stats.corrupted_delivered, 0u);
    EXPECT_GT(noisy.stats.retries, 0u);
    EXPECT_EQ(noisy.stats.retries, noisy.link_retries);
    EXPECT_EQ(clean.stats.retries, 0u);
    EXPECT_GT(noisy.stats.latency_ns.mean(), clean.stats.latency_ns.mean());
}

TEST(BitErrors, WithoutRetryCorruptedPayloadsArrive) {
    const TrafficRun r = run_traffic(2e-5, false, 1);
    ASSERT_EQ(r.deliveries.size(), 36u * 100);
    EXPECT_GT(r.corrupted_seen, 0u);
    EXPECT_EQ(r.stats.retries, 0u);
    // Each corrupted packet has one flipped bit (two hits on one bit are unlikely at
    // this rate and do not happen with this seed), and the end-to-end CRC sees each.
    EXPECT_EQ(r.corrupted_seen, r.stats.corrupted_delivered);
    EXPECT_EQ(r.crc_failures, r.corrupted_seen);
}

TEST(Determinism, SameSeedSameDeliveriesDifferentSeedDifferentErrors) {
    const TrafficRun a = run_traffic(2e-5, false, 99);
    const TrafficRun b = run_traffic(2e-5, false, 99);
    EXPECT_EQ(a.deliveries, b.deliveries);
    EXPECT_EQ(a.flipped_bits, b.flipped_bits);
    const TrafficRun c = run_traffic(2e-5, false, 100);
    EXPECT_NE(a.flipped_bits, c.flipped_bits);

    const TrafficRun ra = run_traffic(2e-5, true, 5);
    const TrafficRun rb = run_traffic(2e-5, true, 5);
    EXPECT_EQ(ra.deliveries, rb.deliveries) << "retry timing is deterministic too";
    const TrafficRun rc = run_traffic(2e-5, true, 6);
    EXPECT_NE(ra.deliveries, rc.deliveries) << "other error positions, other retry times";
}

TEST(BitErrors, RateIsValidated) {
    LinkParams p;
    p.bit_error_rate = 0.5;
    EXPECT_THROW(Link(0, p, 1, 1, 0), NetworkError);
    p.bit_error_rate = -1e-9;
    EXPECT_THROW(Link(0, p, 1, 1, 0), NetworkError);
}

}  // namespace
}  // namespace niclab::net
