// The T9000's four DS links (seed 003 L61, Fig. 3 L112, Fig. 5 L145): each link is its
// own cable (terminal) into the network, VLs go round-robin over the links, their
// packets travel in parallel on their own cables, each link's packets have their own VCP
// engine, bytes arrive exact; t9000.links out of range is an error naming the key.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "niclab/exp/experiments.hpp"
#include "niclab/system/config_error.hpp"
#include "niclab/systems/t9000/model.hpp"
#include "vl_stream.hpp"

namespace niclab::t9000 {
namespace {

using test::Outcome;
using test::stream;
using test::two_nodes;

nlohmann::json links(int n, nlohmann::json set = nlohmann::json::object()) {
    set["t9000.links"] = n;
    return {{"set", set}};
}

double stream_mb_s(const std::string& transport, nlohmann::json extra) {
    const auto r = exp::run_experiment("stream", two_nodes(extra), {{"transport", transport}, {"sizes", {65536}}});
    return r.column("bandwidth_mb_s")[0];
}

TEST(T9000Links, EachLinkIsItsOwnCableAndCarriesItsVirtualLinksPackets) {
    // vl2 on four links: eight VLs, VL i on link i mod 4; 40 messages of 4 KB go round
    // the VLs, so each link carries ten messages' packets.
    const Outcome r = stream("vl2", {4096}, 40, links(4));
    ASSERT_EQ(r.cables.size(), 8u);  // two nodes x four links, direct: four cables each way
    const uint64_t per_link = 10 * 4096 / 32;
    for (uint32_t l = 0; l < 4; ++l) {
        EXPECT_EQ(r.tx.packets_sent_on[l], per_link) << "link " << l;
        EXPECT_EQ(r.rx.packets_received_on[l], per_link) << "link " << l;
        // node 0's link l is terminal 2l (terminals.hpp): its cable carried exactly those
        // packets' payload; node 1's cable of the same link carried the acknowledgements
        EXPECT_EQ(r.cables[2 * l].payload_bytes, per_link * 32) << "link " << l;
        EXPECT_EQ(r.cables[2 * l + 1].payload_bytes, 0u) << "link " << l;
        EXPECT_GE(r.cables[2 * l + 1].packets, per_link) << "link " << l;
    }
    EXPECT_EQ(r.rx.bytes_received, 40u * 4096);
    EXPECT_EQ(r.tx.max_in_flight_per_vl, 1u);
    EXPECT_GE(r.tx.max_vls_in_flight, 4u);  // the links' VLs overlap
}

TEST(T9000Links, FourLinksMoveEveryByteExactly) {
    // The transport checks every message against the sender's pattern, on every VL.
    const std::vector<uint64_t> sizes = {0, 1, 31, 32, 33, 1000, 4096, 65536};
    const Outcome r = stream("vl3", sizes, 12, links(4));
    uint64_t bytes = 0;
    for (uint64_t s : sizes) bytes += 12 * s;
    EXPECT_EQ(r.rx.bytes_received, bytes);
    EXPECT_EQ(r.tx.acks_received, r.tx.packets_sent);
    for (uint32_t l = 0; l < 4; ++l) EXPECT_GT(r.tx.packets_sent_on[l], 0u) << "link " << l;
}

TEST(T9000Links, ThroughOneC104EveryLinkIsASwitchPort) {
    // Two nodes x four links: eight C104 ports; the default topology for three nodes of
    // four links is one C104 of twelve ports.
    const Outcome r = stream("vl2", {4096}, 8, {{"set", {{"t9000.links", 4}}}, {"topology", {{"kind", "crossbar"}}}});
    EXPECT_EQ(r.cables.size(), 8u);
    for (uint32_t l = 0; l < 4; ++l) EXPECT_EQ(r.cables[2 * l].payload_bytes, 2u * 4096) << "link " << l;
    system::System three(system::SystemSpec::from_json({{"preset", "t9000-20"}, {"nodes", 3}, {"set", {{"t9000.links", 4}}}}));
    EXPECT_EQ(three.network()->nodes(), 12u);
    EXPECT_EQ(three.node_count(), 3u);
    // A C104 of two ports cannot take two nodes of four links each.
    try {
        system::System sys(two_nodes({{"set", {{"t9000.links", 4}}}, {"topology", {{"kind", "crossbar"}, {"ports", 2}}}}));
        FAIL() << "two switch ports took eight links";
    } catch (const system::ConfigError& e) {
        EXPECT_EQ(e.key_path(), "topology") << e.what();
        EXPECT_NE(std::string(e.what()).find("8 terminals"), std::string::npos) << e.what();
    }
}

TEST(T9000Links, TheVcpDrivesEveryLinkAtItsOneLinkRate) {
    // Fig. 3 (L112): the bandwidth scales linearly with the links in use, because each
    // link's packets have their own engine: four links, four times one link's VCP-bound
    // 32 B / 5.2 us.
    const double one = stream_mb_s("vl5", links(1));
    const double two = stream_mb_s("vl5", links(2));
    const double four = stream_mb_s("vl5", links(4));
    EXPECT_NEAR(two / one, 2.0, 0.05);
    EXPECT_NEAR(four / one, 4.0, 0.1);
    // One engine for every link (the what-if): the links share its 5.2 us per packet.
    const double shared = stream_mb_s("vl5", links(4, {{"vcp.engine_per_link", 0}}));
    EXPECT_NEAR(shared / one, 1.0, 0.05);
}

TEST(T9000Links, ShortMessagesOnTenVirtualLinksPerLink) {
    // Fig. 5 (L145): ten VLs per physical link, 0-byte messages; the CPU (a context
    // switch and an out per message) bounds the rate, so more links add little.
    auto rate_khz = [](int n) {
        const auto r = exp::run_experiment("stream", two_nodes(links(n)),
                                           {{"transport", "vl10"}, {"sizes", {0}}, {"repeats", 400}});
        return 1000.0 / r.column("time_us")[0];
    };
    const double one = rate_khz(1), four = rate_khz(4);
    EXPECT_GT(four, 0.95 * one);
    EXPECT_LT(four, 1.5 * one);
}

TEST(T9000Links, SameSpecAndSeedSameResultBitForBit) {
    const nlohmann::json opt = {{"transport", "vl4"}, {"sizes", {64, 3000, 20000}}};
    const auto a = exp::run_experiment("stream", two_nodes(links(3)), opt);
    const auto b = exp::run_experiment("stream", two_nodes(links(3)), opt);
    EXPECT_EQ(a.column("bandwidth_mb_s"), b.column("bandwidth_mb_s"));
    EXPECT_EQ(a.column("time_us"), b.column("time_us"));
}

TEST(T9000Links, LinksOutOfRangeNameTheKey) {
    for (const nlohmann::json& bad : {nlohmann::json(0), nlohmann::json(5), nlohmann::json(1.5)}) {
        try {
            system::System sys(two_nodes({{"set", {{"t9000.links", bad}}}}));
            FAIL() << "t9000.links = " << bad << " was accepted";
        } catch (const system::ConfigError& e) {
            EXPECT_EQ(e.key_path(), "set.t9000.links") << e.what();
        }
    }
}

}  // namespace
}  // namespace niclab::t9000
