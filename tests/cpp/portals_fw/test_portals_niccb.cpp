// The NIC control block as the host reads it (seed 000 §4.2): configuration words
// consistent with the SRAM formula M = S*S_size + sum P_i*P_size and with the build's
// size report, counters that match what happened; and determinism of a whole run.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "portals_harness.hpp"

namespace niclab::test {
namespace {

using ptl::Incoming;
using ptl::NodeScript;

TEST(PortalsNiccb, ConfigurationMatchesTheSramFormula) {
    system::System sys(ptl::spec(1));
    ptl::PortalsHost h(sys, 0);
    EXPECT_EQ(h.niccb(ptl::kMagic), PTL_NICCB_MAGIC);
    EXPECT_EQ(h.niccb(ptl::kVersion), PTL_FW_VERSION);
    // Seed 000 §4.2: 1,024 sources, 1,274 pendings for the generic process.
    EXPECT_EQ(h.niccb(ptl::kSources), 1024u);
    EXPECT_EQ(h.niccb(ptl::kTxPendings) + h.niccb(ptl::kRxPendings), 1274u);
    EXPECT_EQ(h.niccb(ptl::kTxPendings), 256u);
    EXPECT_EQ(h.niccb(ptl::kSegments), 512u);
    uint32_t S = h.niccb(ptl::kSources), S_size = h.niccb(ptl::kSourceBytes);
    uint32_t P = h.niccb(ptl::kTxPendings) + h.niccb(ptl::kRxPendings), P_size = h.niccb(ptl::kPendingBytes);
    EXPECT_GT(S_size, 0u);
    EXPECT_GT(P_size, 0u);
    EXPECT_EQ(h.niccb(ptl::kSramStructs), S * S_size + P * P_size);

    // The build's size report says the same.
    std::ifstream in(std::string(NICLAB_FIRMWARE_DIR) + "/portals/portals.size.txt");
    ASSERT_TRUE(in) << "no size report";
    std::stringstream text;
    text << in.rdbuf();
    std::smatch m;
    std::string report = text.str();
    ASSERT_TRUE(std::regex_search(report, m, std::regex(R"(M = S\*S_size \+ sum_i P_i\*P_size \(N = 1\) = (\d+)\*(\d+) \+ 1\*(\d+)\*(\d+) = (\d+) bytes)")))
        << report;
    EXPECT_EQ(std::stoul(m[1]), S);
    EXPECT_EQ(std::stoul(m[2]), S_size);
    EXPECT_EQ(std::stoul(m[3]), P);
    EXPECT_EQ(std::stoul(m[4]), P_size);
    EXPECT_EQ(std::stoul(m[5]), h.niccb(ptl::kSramStructs));
}

// With an accelerated process (seed 000 §4.1) N = 2: a second pending pool as large as
// the generic one, and its match entries and MDs, all within the 384 KB.
TEST(PortalsNiccb, AcceleratedImageCountsTwoProcesses) {
    system::System sys(ptl::spec(1, "portals_accel"));
    ptl::PortalsHost h(sys, 0);
    EXPECT_NE(h.niccb(ptl::kFeatures) & PTL_FW_FEAT_ACCEL, 0u);
    const uint32_t S = h.niccb(ptl::kSources), S_size = h.niccb(ptl::kSourceBytes);
    const uint32_t P = h.niccb(ptl::kTxPendings) + h.niccb(ptl::kRxPendings), P_size = h.niccb(ptl::kPendingBytes);
    EXPECT_EQ(h.niccb(ptl::kSramStructs), S * S_size + 2 * P * P_size);
    std::ifstream in(std::string(NICLAB_FIRMWARE_DIR) + "/portals/portals_accel.size.txt");
    std::stringstream text;
    text << in.rdbuf();
    const std::string report = text.str();
    std::smatch m;
    ASSERT_TRUE(std::regex_search(report, m, std::regex(R"(\(N = 2\) = \d+\*\d+ \+ 2\*(\d+)\*\d+ = (\d+) bytes)"))) << report;
    EXPECT_EQ(std::stoul(m[1]), P);
    EXPECT_EQ(std::stoul(m[2]), h.niccb(ptl::kSramStructs));
    ASSERT_TRUE(std::regex_search(report, m, std::regex(R"(256 match entries x 36 \+ 256 MDs x 32)"))) << report;
    ASSERT_TRUE(std::regex_search(report, m, std::regex(R"(sram with pools +(\d+) of 393216 bytes)"))) << report;
    EXPECT_LT(std::stoul(m[1]), 393216u);
}

TEST(PortalsNiccb, TinyImageReportsItsPools) {
    system::System sys(ptl::spec(1, "portals_tiny"));
    ptl::PortalsHost h(sys, 0);
    EXPECT_EQ(h.niccb(ptl::kSources), 4u);
    EXPECT_EQ(h.niccb(ptl::kTxPendings), 4u);
    EXPECT_EQ(h.niccb(ptl::kRxPendings), 8u);
    EXPECT_EQ(h.niccb(ptl::kSegments), 8u);
    EXPECT_EQ(h.niccb(ptl::kSramStructs), 4 * h.niccb(ptl::kSourceBytes) + 12 * h.niccb(ptl::kPendingBytes));
}

class PortalsCounters : public ::testing::TestWithParam<const char*> {};

TEST_P(PortalsCounters, CountWhatHappened) {
    // With and without write-through the host must read the same counters.
    system::System sys(ptl::spec(3, GetParam()));
    NodeScript a, b, rx;
    for (uint32_t i = 0; i < 6; ++i) a.sends.push_back({2, i, 0x100000, 2000, {}, {}});
    for (uint32_t i = 0; i < 4; ++i) b.sends.push_back({2, 10 + i, 0x100000, i == 0 ? 0u : 300u, {}, {}});
    rx.expect_rx = 10;
    rx.place = [](const Incoming& in) { return ptl::Placement{0x400000, in.hdr.length, {}}; };
    auto r = ptl::run(sys, {{0, &a}, {1, &b}, {2, &rx}});
    ASSERT_TRUE(a.finished && b.finished && rx.finished);
    const ptl::PortalsHost& ha = *r.hosts[0];
    const ptl::PortalsHost& h = *r.hosts[2];
    EXPECT_EQ(ha.niccb(ptl::kTxMessages), 6u);
    EXPECT_EQ(ha.niccb(ptl::kRxMessages), 0u);
    EXPECT_EQ(ha.niccb(ptl::kEvents), 6u);
    EXPECT_EQ(ha.niccb(ptl::kSourcesInUse), 0u);
    EXPECT_EQ(ha.niccb(ptl::kSourcesInUseMax), 1u);
    EXPECT_EQ(h.niccb(ptl::kRxMessages), 10u);
    EXPECT_EQ(h.niccb(ptl::kTxMessages), 0u);
    // One header-only message: NEW_MSG_COMPLETE with VSMALL, NEW_MSG + RX_DONE without.
    bool vsmall = h.niccb(ptl::kFeatures) & PTL_FW_FEAT_VSMALL;
    EXPECT_EQ(h.niccb(ptl::kEvents), vsmall ? 19u : 20u);
    EXPECT_EQ(h.niccb(ptl::kEvents), rx.event_types.size());
    EXPECT_EQ(h.niccb(ptl::kHostInterrupts), sys.nic(2).control().host_interrupts());
    EXPECT_EQ(h.niccb(ptl::kHostInterrupts), h.interrupts_taken());
    EXPECT_LE(h.niccb(ptl::kHostInterrupts), 1 + h.niccb(ptl::kEvents)) << "at most one interrupt per event (+ INIT)";
    EXPECT_EQ(h.niccb(ptl::kRxInUse), 0u);
    EXPECT_GE(h.niccb(ptl::kRxInUseMax), 1u);
    EXPECT_LE(h.niccb(ptl::kRxInUseMax), 10u);
    EXPECT_EQ(h.niccb(ptl::kSourcesInUse), 0u);
    EXPECT_GE(h.niccb(ptl::kSourcesInUseMax), 1u);
    EXPECT_LE(h.niccb(ptl::kSourcesInUseMax), 2u);
}

INSTANTIATE_TEST_SUITE_P(WriteThroughOnOff, PortalsCounters, ::testing::Values("portals", "portals_nowt", "portals_novsmall"));

TEST(PortalsNiccb, HeartbeatAdvances) {
    system::System sys(ptl::spec(1));
    uint32_t before = sys.nic(0).peek32(NICLAB_HEARTBEAT_ADDR);
    ptl::PortalsHost h(sys, 0);
    host::Process p(sys.host_cpu(0), "init", [&](host::ProcessContext& ctx) { h.init(ctx); });
    sys.run_until(Time::max());
    EXPECT_GT(sys.nic(0).peek32(NICLAB_HEARTBEAT_ADDR), before);
}

struct Timeline {
    std::vector<Time> tx, rx;
    std::vector<uint32_t> rx_tags;
    uint64_t cycles0 = 0, cycles1 = 0;
    Time end{};
};

Timeline timeline() {
    system::System sys(ptl::spec(4, "portals", {{"kind", "mesh"}, {"dims", {2, 2, 1}}}, 7));
    NodeScript s1, s2, rx;
    for (uint32_t i = 0; i < 8; ++i) {
        s1.sends.push_back({0, i, 0x100001, 1000 + 3000 * i, {}, {}});
        s2.sends.push_back({0, 100 + i, 0x200001, 12000 - 1000 * i, {}, {}});
    }
    rx.expect_rx = 16;
    rx.place = [](const Incoming& in) { return ptl::Placement{0x800001 + in.hdr.match_bits_lo * 0x10000, in.hdr.length, {}}; };
    ptl::run(sys, {{0, &rx}, {1, &s1}, {3, &s2}});
    Timeline t;
    for (auto& e : s1.tx_done) t.tx.push_back(e.when);
    for (auto& e : s2.tx_done) t.tx.push_back(e.when);
    for (auto& in : rx.received) {
        t.rx.push_back(in.done);
        t.rx_tags.push_back(in.hdr.match_bits_lo);
    }
    t.cycles0 = sys.nic(0).cpu().cycles();
    t.cycles1 = sys.nic(1).cpu().cycles();
    t.end = sys.now();
    return t;
}

TEST(PortalsDeterminism, SameRunTwiceGivesTheSameCompletionTimes) {
    Timeline a = timeline(), b = timeline();
    ASSERT_EQ(a.rx.size(), 16u);
    EXPECT_EQ(a.tx, b.tx);
    EXPECT_EQ(a.rx, b.rx);
    EXPECT_EQ(a.rx_tags, b.rx_tags);
    EXPECT_EQ(a.cycles0, b.cycles0);
    EXPECT_EQ(a.cycles1, b.cycles1);
    EXPECT_EQ(a.end, b.end);
}

}  // namespace
}  // namespace niclab::test
