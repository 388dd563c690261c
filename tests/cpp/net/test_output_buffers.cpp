// Output buffers (NetworkParams::output_buffers, the STC104's): a stage between each
// router output and its cable. An idle worm is not delayed by it; under load every
// packet still arrives intact and in order per pair; cut-through refuses it.
#include <gtest/gtest.h>

#include "net_test_nic.hpp"
#include "niclab/net/network_error.hpp"

namespace niclab::net {
namespace {

using testing::make_frame;
using testing::make_nics;
using testing::payload_intact;

NetworkParams ds(uint32_t in_flits, uint32_t out_flits) {
    NetworkParams p;
    p.link = testing::ds_link(2);
    p.router_delay = Time::ns(1000);
    p.flit_bytes = 8;
    p.input_buffers = in_flits;
    p.output_buffers = out_flits;
    p.receive_buffers = 140;
    p.max_payload = 1024;
    p.switching = Switching::Wormhole;
    return p;
}

Time one_worm(const NetworkParams& p, uint16_t length) {
    sim::Kernel k;
    Network net(k, Crossbar{4}, p);
    auto nics = make_nics(net);
    nics[0]->send(make_frame<1024>(0, 3, 1, length));
    k.run_until(Time::ms(1));
    EXPECT_EQ(nics[3]->log.size(), 1u);
    return nics[3]->log.empty() ? Time{} : nics[3]->log[0].at;
}

TEST(OutputBuffers, AnIdleWormIsNotDelayed) {
    for (uint16_t len : {0, 30, 1000}) {
        // 64 characters at the input, or 32 at the input and 32 at the output.
        const Time lumped = one_worm(ds(8, 0), len);
        EXPECT_EQ(one_worm(ds(4, 4), len), lumped) << len;
        // Two cables, the switch's 1 us, the packet's characters and end token.
        EXPECT_EQ(lumped, Time::ns(40 + 1000 + (len + 2) * 100 + 40));
    }
}

TEST(OutputBuffers, UnderLoadEveryPacketArrivesIntactAndInOrder) {
    sim::Kernel k;
    Network net(k, Crossbar{8}, ds(4, 4));
    auto nics = make_nics(net);
    for (uint32_t i = 0; i < 400; ++i) {
        const NodeId src = i % 8, dst = (i * 3 + 1 + i / 8) % 8;
        if (src != dst) nics[src]->send(make_frame<1024>(src, dst, i, uint16_t(1 + i * 53 % 700)));
    }
    k.run_until(Time::ms(100));
    std::size_t got = 0;
    for (auto& n : nics) {
        got += n->log.size();
        for (std::size_t a = 0; a < n->log.size(); ++a) {
            EXPECT_TRUE(payload_intact(n->log[a].packet));
            for (std::size_t b = a + 1; b < n->log.size(); ++b)
                if (n->log[a].packet.src == n->log[b].packet.src) {
                    EXPECT_LT(n->log[a].packet.message_id, n->log[b].packet.message_id);
                }
        }
    }
    EXPECT_EQ(got, net.stats().packets_injected);
    EXPECT_EQ(net.packets_in_flight(), 0u);
}

TEST(OutputBuffers, CutThroughRefusesThem) {
    sim::Kernel k;
    NetworkParams p = ds(140, 4);
    p.switching = Switching::VirtualCutThrough;
    EXPECT_THROW(Network(k, Crossbar{4}, p), NetworkError);
}

}  // namespace
}  // namespace niclab::net
