// GRIM's transports (am, rm-p, rm-v) as the experiments use them: a ping-pong of messages
// larger than the MTU (fragments) both ways, every byte checked by the transport.
#include "grim_test_support.hpp"

#include <cstddef>
#include <iostream>

#include "niclab/fw/grim_fw.h"

namespace niclab::grim {
namespace {

using namespace test;

void pingpong(const std::string& transport, const std::vector<uint64_t>& sizes, uint32_t rounds) {
    system::System sys(spec());
    niclab::test::TestProcesses procs;
    uint32_t done = 0;
    for (uint32_t node : {0u, 1u}) {
        procs.spawn(sys.host_cpu(node), "pp", [&, node](host::ProcessContext& ctx) {
            auto t = sys.model().open_transport(sys, node, 1 - node, transport, 9);
            uint64_t max = 0;
            for (auto s : sizes) max = std::max(max, s);
            t->open(ctx, max);
            for (uint64_t s : sizes)
                for (uint32_t r = 0; r < rounds; ++r) {
                    if (node == 0) {
                        t->prepare_send(ctx, s);
                        t->send(ctx, r);
                        EXPECT_EQ(t->recv(ctx).bytes, s);
                    } else {
                        EXPECT_EQ(t->recv(ctx).bytes, s);
                        t->prepare_send(ctx, s);
                        t->send(ctx, r);
                    }
                }
            ++done;
        });
    }
    sys.run_for(Time::ms(400));
    procs.rethrow_failures();
    if (done != 2)
        for (uint32_t n : {0u, 1u}) {
            std::cerr << "node " << n << ":";
            for (const auto& c : Endpoint::counter_names()) std::cerr << " " << c << "=" << endpoint(sys, n).counter(c.c_str());
            const uint32_t lc = endpoint(sys, n).shared_address() + offsetof(grim_shared, lc);
            std::cerr << " sq_back=" << lanai(sys, n).nic().peek32(lc + offsetof(grim_lc, sq_back))
                      << " sq_front=" << lanai(sys, n).nic().peek32(lc + offsetof(grim_lc, sq_front)) << " nic send " << sys.hardware(n).counter("nic.send_messages").value_or(0) << " recv "
                      << sys.hardware(n).counter("nic.recv_messages").value_or(0) << " ring head " << lanai(sys, n).net_recv().head() << " tail " << lanai(sys, n).net_recv().tail() << " bytes "
                      << lanai(sys, n).net_recv().ring_bytes() << " flags@head "
                      << lanai(sys, n).nic().peek32(0xFF000000u + lanai(sys, n).net_recv().ring() +
                                                    lanai(sys, n).net_recv().head() % lanai(sys, n).net_recv().ring_bytes())
                      << " pc "
                      << lanai(sys, n).nic().where(lanai(sys, n).nic().cpu().pc()) << "\n";
        }
    EXPECT_EQ(done, 2u) << transport << " stalled at " << sys.now().as_us() << " us: node 0 sent " << endpoint(sys, 0).counter("sent")
                        << ", node 1 received " << endpoint(sys, 1).counter("received") << ", node 1 sent "
                        << endpoint(sys, 1).counter("sent") << ", node 0 received " << endpoint(sys, 0).counter("received")
                        << ", refusals " << sys.hardware(0).counter("nic.recv_refusals").value_or(0) << "/"
                        << sys.hardware(1).counter("nic.recv_refusals").value_or(0) << ", nacks " << endpoint(sys, 0).counter("nacks_sent")
                        << "/" << endpoint(sys, 1).counter("nacks_sent");
}

TEST(GrimTransport, ActiveMessagePingPongAcrossFragmentSizes) { pingpong("am", {0, 4, 64512, 64513, 200000}, 2); }
TEST(GrimTransport, RmpPingPongAcrossFragmentSizes) { pingpong("rm-p", {0, 4, 64512, 64513, 200000}, 2); }
TEST(GrimTransport, RmvPingPongAcrossFragmentSizes) { pingpong("rm-v", {0, 4, 64512, 64513, 200000}, 2); }
TEST(GrimTransport, OneMegabytePingPong) {
    pingpong("rm-p", {1 << 20}, 2);
    pingpong("rm-v", {1 << 20}, 2);
    pingpong("am", {1 << 20}, 2);
}

}  // namespace
}  // namespace niclab::grim
