// A router's arbiter (Router::arbitrate) against the rule it implements, written out here
// as the plain scan: of the input buffers whose head packet goes out of the port and has
// its credits downstream, the lowest vnet wins, and within it the first input from the
// last grant on (round-robin). Routers of up to 64 inputs find the requesting inputs
// through a bitmask per output, larger ones scan them all: both are driven through random
// traffic and random credit levels, grant by grant.
#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "niclab/net/router.hpp"
#include "niclab/sim/random.hpp"

namespace niclab::net {
namespace {

void grants_follow_the_rule(uint32_t ports, uint32_t vcs, uint32_t dateline_vcs, uint64_t seed) {
    const std::vector<PortInfo> infos(ports, PortInfo{PeerKind::Router, 0, 0, 0, false});
    Router router(0, infos, vcs, dateline_vcs);
    PacketPool pool(64);
    Link link(0, LinkParams{}, vcs, 2, seed);  // the output's cable, 2 credits a VC to start
    std::vector<uint32_t> credits(vcs, 2);
    const uint32_t n = ports * vcs;
    std::vector<std::deque<PacketHandle>> inputs(n);  // what the router's buffers hold
    std::vector<uint32_t> next_grant(ports, 0);
    sim::Random random(seed, "arbiter test");
    uint32_t queued = 0, granted = 0, refused = 0;

    // The rule, from the heads the test keeps.
    auto expected = [&](uint8_t out) {
        int best = -1;
        uint32_t best_vnet = UINT32_MAX;
        for (uint32_t k = 0, b = next_grant[out]; k < n; ++k, b = (b + 1) % n) {
            if (inputs[b].empty() || pool[inputs[b].front()].out_port != out) continue;
            const uint32_t vnet = b % vcs / dateline_vcs;
            if (vnet >= best_vnet || credits[pool[inputs[b].front()].out_vc] == 0) continue;
            best = int(b);
            best_vnet = vnet;
            if (vnet == 0) break;
        }
        return best;
    };

    for (int step = 0; step < 20000; ++step) {
        if (random.below(2) == 0 && queued < 4 * n) {  // a packet into a random input buffer
            const uint32_t b = uint32_t(random.below(n));
            const PacketHandle h = pool.allocate();
            pool[h].header.length = 64;
            pool[h].out_port = uint8_t(random.below(ports));
            pool[h].out_vc = uint8_t(random.below(vcs));
            router.enqueue(pool, b, h);
            inputs[b].push_back(h);
            ++queued;
            continue;
        }
        for (uint32_t vc = 0; vc < vcs; ++vc) {  // each VC with or without a credit downstream
            const uint32_t want = uint32_t(random.below(2));
            if (want > credits[vc]) link.return_credit(vc, want - credits[vc]);
            if (want < credits[vc]) link.take_credit(vc, credits[vc] - want);
            credits[vc] = want;
        }
        const uint8_t out = uint8_t(random.below(ports));
        const int want = expected(out);
        const int got = router.arbitrate(out, link);
        ASSERT_EQ(got, want) << "output " << int(out) << " at step " << step << " of a router of " << ports
                             << " ports x " << vcs << " VCs";
        if (got < 0) {
            ++refused;
            continue;
        }
        ++granted;
        next_grant[out] = (uint32_t(got) + 1) % n;
        ASSERT_EQ(router.dequeue(pool, uint32_t(got)), inputs[got].front());
        pool.release(inputs[got].front());
        inputs[got].pop_front();
        --queued;
        for (uint32_t b = 0; b < n; ++b)  // every buffer's next head asks for its own output
            ASSERT_EQ(router.head_port(b), inputs[b].empty() ? -1 : int(pool[inputs[b].front()].out_port)) << b;
    }
    EXPECT_GT(granted, 1000u);  // both outcomes were tried many times
    EXPECT_GT(refused, 1000u);
}

TEST(RouterArbiter, GrantsFollowTheRoundRobinAndVnetRule) {
    grants_follow_the_rule(7, 1, 1, 1);    // a 3-D mesh router: 7 inputs, the bitmask
    grants_follow_the_rule(7, 2, 2, 2);    // a torus's: dateline VCs, 14 inputs
    grants_follow_the_rule(4, 8, 2, 3);    // four vnets of two dateline VCs: priority
    grants_follow_the_rule(64, 1, 1, 4);   // the bitmask's last bit
    grants_follow_the_rule(33, 2, 1, 5);   // 66 inputs, two vnets: the scan
}

}  // namespace
}  // namespace niclab::net
