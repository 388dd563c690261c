// Both nodes send 4 MB to each other at once (the bidir experiment) over the am and
// sockets transports. Each host writes fragments into its NI's send queue and takes
// arrivals only afterwards; the NI frees send-queue room only when the peer's NI has
// ACKed, which it does only when the peer's host has drained its AM queue. A library
// that waited for send room without polling stalled both sides for ever (the 4 MB
// bidir stall); it now polls while it waits (Endpoint::push). The run is bounded in
// simulated time, so a stall is a failure naming what each side did, not a hang.
#include "grim_test_support.hpp"

namespace niclab::grim {
namespace {

using namespace test;

void bidir(const std::string& transport, uint64_t bytes, const char* image = "grim") {
    system::System sys(spec(2, nlohmann::json::object(), "grim-lanai9", image));
    niclab::test::TestProcesses procs;
    uint32_t done = 0;
    for (uint32_t node : {0u, 1u})
        procs.spawn(sys.host_cpu(node), "bidir", [&, node](host::ProcessContext& ctx) {
            auto t = sys.model().open_transport(sys, node, 1 - node, transport, 5);
            t->open(ctx, bytes);
            t->prepare_send(ctx, bytes);
            for (uint32_t round = 0; round < 2; ++round) {
                t->send(ctx, round + 1);
                const auto got = t->recv(ctx);  // the transport checks every byte
                EXPECT_EQ(got.bytes, bytes);
                EXPECT_EQ(got.tag, round + 1);
            }
            ++done;
        });
    // ~40 ms a round each way at ~100 MB/s: 1 s of simulated time is plenty.
    sys.run_for(Time::ms(1000));
    procs.rethrow_failures();
    EXPECT_EQ(done, 2u) << transport << " bidir of " << bytes << " B stalled: at " << sys.now().as_us() << " us node 0 had sent "
                        << endpoint(sys, 0).counter("sent") << " messages and received " << endpoint(sys, 0).counter("received")
                        << ", node 1 sent " << endpoint(sys, 1).counter("sent") << " and received " << endpoint(sys, 1).counter("received")
                        << "; NACKs " << endpoint(sys, 0).counter("nacks_sent") << " / " << endpoint(sys, 1).counter("nacks_sent");
}

TEST(GrimBidir, FourMegabytesEachWayAtOnceOverActiveMessages) { bidir("am", 4 << 20); }
TEST(GrimBidir, FourMegabytesEachWayAtOnceOverSockets) { bidir("sockets", 4 << 20); }
TEST(GrimBidir, FourMegabytesEachWayAtOnceOnTheCutThroughImage) { bidir("am", 4 << 20, "grim_cutthrough"); }

}  // namespace
}  // namespace niclab::grim
