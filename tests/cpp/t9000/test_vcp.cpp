// The T9000's VCP and vl transport on a two-node system: messages arrive byte-exact in
// as many 32-byte packets as they need, each acknowledged before the next on its VL, VLs
// overlap on one physical link, and a bad parameter or transport is a typed error.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "niclab/exp/experiments.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/systems/t9000/model.hpp"
#include "vl_stream.hpp"

namespace niclab::t9000 {
namespace {

using test::two_nodes;
using test::stream;
using test::Outcome;


uint64_t packets_for(uint64_t bytes) { return bytes == 0 ? 1 : (bytes + 31) / 32; }

TEST(T9000Vcp, MessagesArriveByteExactInThirtyTwoBytePackets) {
    const std::vector<uint64_t> sizes = {0, 1, 32, 33, 1000};
    const Outcome r = stream("vl", sizes);
    uint64_t packets = 0, bytes = 0;
    for (uint64_t s : sizes) packets += packets_for(s), bytes += s;
    // node 0's data packets, and the empty answers node 1 sent back
    EXPECT_EQ(r.tx.bytes_sent, bytes);
    EXPECT_EQ(r.rx.bytes_received, bytes);
    EXPECT_EQ(r.tx.packets_sent, packets);
    EXPECT_EQ(r.rx.packets_received, packets);
    EXPECT_EQ(r.rx.packets_sent, 1u);
    // every packet is acknowledged, both ways
    EXPECT_EQ(r.rx.acks_sent, r.rx.packets_received);
    EXPECT_EQ(r.tx.acks_received, r.tx.packets_sent);
}

TEST(T9000Vcp, OneVirtualLinkNeverHasTwoPacketsInFlight) {
    const Outcome r = stream("vl", {1000, 4096}, 3);
    EXPECT_EQ(r.tx.max_in_flight_per_vl, 1u);
    EXPECT_EQ(r.tx.max_vls_in_flight, 1u);
    EXPECT_EQ(r.rx.overlapping_arrivals, 0u);
    EXPECT_EQ(r.tx.packets_sent, 3 * (packets_for(1000) + packets_for(4096)));
}

TEST(T9000Vcp, SeveralVirtualLinksOverlapOnOneLink) {
    const Outcome one = stream("vl", {4096}, 10);
    const Outcome five = stream("vl5", {4096}, 10);
    // each VL still waits for its acknowledgements, but the VLs' packets are in flight together
    EXPECT_EQ(five.tx.max_in_flight_per_vl, 1u);
    EXPECT_GE(five.tx.max_vls_in_flight, 2u);
    EXPECT_EQ(five.rx.overlapping_arrivals, 0u);
    EXPECT_EQ(five.tx.packets_sent, one.tx.packets_sent);
    EXPECT_LT(five.end, one.end);  // the same bytes in less time
}

// The engine's timing rules, from the preset's numbers (20 MHz: 50 ns a cycle; a full
// packet is 20 + 32 x 2 = 84 cycles to send or receive, an acknowledgement 20 to make or
// take; on the wire 34 characters + end token = 3.44 us, an ack 0.24 us, 20 ns of cable).
double stream_mb_s(const std::string& transport) {
    const auto r = exp::run_experiment("stream", two_nodes(), {{"transport", transport}, {"sizes", {65536}}});
    return r.column("bandwidth_mb_s")[0];
}

TEST(T9000Vcp, OneVirtualLinkWaitsForEachAcknowledgement) {
    // Send work 4.2 us ends as the tail leaves (0.76 us after the head); receive work
    // starts at the head and ends 4.2 us later; make the ack (1.0), its wire (0.26), take
    // it (1.0): 7.24 us per 32 bytes.
    EXPECT_NEAR(stream_mb_s("vl_seq"), 32 / 7.24, 0.01 * 32 / 7.24);
}

TEST(T9000Vcp, ManyVirtualLinksAreBoundByTheVcp) {
    // The sender's VCP sends a packet and takes its ack: 104 cycles = 5.2 us per 32 bytes.
    EXPECT_NEAR(stream_mb_s("vl5"), 32 / 5.2, 0.01 * 32 / 5.2);
}

TEST(T9000Vcp, SeparatePipelinesTakeTheAcknowledgementsOffTheSendingEngine) {
    // pipelines = 2: the sender's output engine only sends (84 cycles = 4.2 us per packet);
    // its acknowledgements go to the input engine.
    const auto r = exp::run_experiment("stream", two_nodes({{"set", {{"vcp.pipelines", 2}}}}),
                                       {{"transport", "vl5"}, {"sizes", {65536}}});
    EXPECT_NEAR(r.column("bandwidth_mb_s")[0], 32 / 4.2, 0.01 * 32 / 4.2);
}

TEST(T9000Vcp, SameSpecAndSeedSameResultBitForBit) {
    const nlohmann::json opt = {{"transport", "vl"}, {"sizes", {0, 1, 33, 100, 1000}}};
    const auto a = exp::run_experiment("pingpong", two_nodes(), opt);
    const auto b = exp::run_experiment("pingpong", two_nodes(), opt);
    EXPECT_EQ(a.column("latency_us"), b.column("latency_us"));
    const auto c = exp::run_experiment("stream", two_nodes(), {{"transport", "vl3"}, {"sizes", {64, 3000}}});
    const auto d = exp::run_experiment("stream", two_nodes(), {{"transport", "vl3"}, {"sizes", {64, 3000}}});
    EXPECT_EQ(c.column("bandwidth_mb_s"), d.column("bandwidth_mb_s"));
}

TEST(T9000Vcp, AFasterClockSendsFaster) {
    // The VCP runs at the CPU clock: the 25 MHz preset's engine is the faster one.
    const auto slow = exp::run_experiment("stream", two_nodes(), {{"transport", "vl5"}, {"sizes", {8192}}});
    const auto fast = exp::run_experiment("stream", two_nodes({{"preset", "t9000-25"}}), {{"transport", "vl5"}, {"sizes", {8192}}});
    EXPECT_GT(fast.column("bandwidth_mb_s")[0], slow.column("bandwidth_mb_s")[0]);
}

TEST(T9000Vcp, ABadParameterNamesItsKey) {
    try {
        system::System sys(two_nodes({{"set", {{"vcp.byte_cycles", -1}}}}));
        FAIL() << "a negative cycle count was accepted";
    } catch (const system::ConfigError& e) {
        EXPECT_EQ(e.key_path(), "set.vcp.byte_cycles") << e.what();
    }
    try {
        system::System sys(two_nodes({{"set", {{"vcp.ack_cycles", 2.5}}}}));
        FAIL() << "a fractional cycle count was accepted";
    } catch (const system::ConfigError& e) {
        EXPECT_EQ(e.key_path(), "set.vcp.ack_cycles") << e.what();
    }
    try {
        system::System sys(two_nodes({{"set", {{"net.max_payload", 33}}}}));
        FAIL() << "33-byte VCP packets were accepted";
    } catch (const system::ConfigError& e) {
        EXPECT_EQ(e.key_path(), "set.net.max_payload") << e.what();
    }
}

TEST(T9000Vcp, AMessageLongerThanTheInputFaultsTheReceiversVcp) {
    system::System sys(two_nodes());
    auto a = model().open_transport(sys, 0, 1, "vl", 1);
    auto b = model().open_transport(sys, 1, 0, "vl", 1);
    niclab::test::TestProcesses procs;
    procs.spawn(sys.host_cpu(0), "send", [&](host::ProcessContext& ctx) {
        a->open(ctx, 1000);
        a->prepare_send(ctx, 1000);
        a->send(ctx, 0);
    });
    procs.spawn(sys.host_cpu(1), "receive", [&](host::ProcessContext& ctx) {
        b->open(ctx, 100);
        b->recv(ctx);
    });
    const auto r = sys.run_for(Time::ms(1));
    procs.rethrow_failures();
    EXPECT_EQ(r.faulted_nodes, std::vector<size_t>{1});
    EXPECT_FALSE(sys.faulted(0));
    EXPECT_NE(sys.fault_report(1).find("longer than the input's 100 bytes"), std::string::npos) << sys.fault_report(1);
    EXPECT_EQ(vcp(sys, 1).stats().bytes_received, 96u);  // three whole packets fitted
}

TEST(T9000Vcp, AnUnknownTransportIsATypedErrorNamingIt) {
    system::System sys(two_nodes());
    try {
        model().open_transport(sys, 0, 1, "vl9", 0);
        FAIL() << "vl9 was accepted";
    } catch (const msg::TransportError& e) {
        EXPECT_NE(std::string(e.what()).find("vl9"), std::string::npos) << e.what();
    }
    try {
        exp::run_experiment("pingpong", two_nodes(), {{"transport", "vl9"}});
        FAIL() << "an experiment over vl9 ran";
    } catch (const exp::ExperimentError& e) {
        EXPECT_NE(std::string(e.what()).find("vl9"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace niclab::t9000
