// The data paths of seed 004 §5.5 as firmware images: `grim` (store-and-forward),
// `grim_pipelined` (the same firmware; the library fragments finely) and
// `grim_cutthrough` (receiver and cooperative sender cut-through). Each moves real
// bytes: every transport checks every byte it receives against its sender's pattern,
// across the sizes where segments, packets and fragments begin and end. Their
// difference shows in the times; each is deterministic. Go-back-N under exhaustion with
// each image is in test_grim_gbn.cpp.
#include "grim_test_support.hpp"

#include "niclab/exp/experiments.hpp"
#include "niclab/fw/grim_fw.h"

namespace niclab::grim {
namespace {

using namespace test;

const std::vector<std::string> kImages = {"grim", "grim_pipelined", "grim_cutthrough"};

exp::Result pingpong(const std::string& image, const std::string& transport, const std::vector<uint64_t>& sizes,
                     const nlohmann::json& set = nlohmann::json::object()) {
    return exp::run_experiment("pingpong", spec(2, set, "grim-lanai9", image.c_str()),
                               {{"transport", transport}, {"sizes", sizes}, {"repeats", 1}});
}

double latency_us(const exp::Result& r, size_t row) { return r.row(row)[r.column_index("latency_us")]; }

TEST(GrimDataPath, EachImageTellsTheLibraryItsDataPath) {
    const uint32_t expect[] = {GRIM_DP_STORE_FORWARD, GRIM_DP_PIPELINED, GRIM_DP_CUT_THROUGH};
    const uint32_t fragment[] = {63 * 1024, 2048, 63 * 1024};  // grim-lanai9: §5.5.3, §5.5.5
    const uint32_t segment[] = {0, 0, 16384};
    for (size_t i = 0; i < kImages.size(); ++i) {
        SCOPED_TRACE(kImages[i]);
        system::System sys(spec(2, nlohmann::json::object(), "grim-lanai9", kImages[i].c_str()));
        const Endpoint& ep = endpoint(sys, 0);
        EXPECT_EQ(ep.datapath(), expect[i]);
        EXPECT_EQ(ep.fragment_bytes(), fragment[i]);
        EXPECT_EQ(ep.segment_bytes(), segment[i]);
    }
}

// 1 B to 1 MB around the 64-byte injection blocks, the 1 KB segments and 4 KB
// fragments set here, the 4 KB packets, the 16 KB segments and the 63 KB fragments.
TEST(GrimDataPath, EveryTransportMovesEveryByteAcrossSegmentPacketAndFragmentBoundaries) {
    const std::vector<uint64_t> sizes = {1, 63, 64, 1023, 1024, 1025, 4095, 4096, 4097, 16383, 16384, 16385, 64512, 64513, 1 << 20};
    for (const nlohmann::json& set : {nlohmann::json::object(),
                                      nlohmann::json{{"grim.cut_through_segment_bytes", 1024}, {"grim.cut_through_fragment_bytes", 4096}}})
        for (const auto& image : kImages)
            for (const std::string transport : {"am", "rm-p", "rm-v"}) {
                SCOPED_TRACE(image + " " + transport + " " + set.dump());
                const exp::Result r = pingpong(image, transport, sizes, set);  // a wrong byte is a TransportError
                ASSERT_EQ(r.rows(), sizes.size());
            }
}

// One 60 KB message: store-and-forward takes it whole through every stage one after
// the other; fine fragments let the stages overlap (§5.5.2); cut-through overlaps them
// within the message (§5.5.4).
TEST(GrimDataPath, PipeliningAndCutThroughOverlapTheStagesOfOneLargeMessage) {
    for (const std::string transport : {"am", "rm-p"}) {
        SCOPED_TRACE(transport);
        const double sf = latency_us(pingpong("grim", transport, {60000}), 0);
        const double pipelined = latency_us(pingpong("grim_pipelined", transport, {60000}), 0);
        const double cut = latency_us(pingpong("grim_cutthrough", transport, {60000}), 0);
        EXPECT_LT(pipelined, 0.8 * sf);
        EXPECT_LT(cut, 0.8 * sf);
    }
}

// Cooperative sender cut-through: with 1 KB segments the NI starts sending while the
// host is still writing the message; with segments larger than it the NI waits for the
// whole message.
TEST(GrimDataPath, SegmentsLetTheSendingNiStartBeforeTheMessageIsIn) {
    const double segmented = latency_us(pingpong("grim_cutthrough", "rm-p", {16384}, {{"grim.cut_through_segment_bytes", 1024}}), 0);
    const double whole = latency_us(pingpong("grim_cutthrough", "rm-p", {16384}, {{"grim.cut_through_segment_bytes", 65536}}), 0);
    EXPECT_LT(segmented, whole - 20);
}

TEST(GrimDataPath, TheSameSpecGivesTheSameTimesWithEachImage) {
    for (const auto& image : kImages)
        for (const std::string transport : {"am", "rm-v"}) {
            SCOPED_TRACE(image + " " + transport);
            const exp::Result a = pingpong(image, transport, {4, 20000, 100000});
            const exp::Result b = pingpong(image, transport, {4, 20000, 100000});
            ASSERT_EQ(a.rows(), b.rows());
            for (size_t i = 0; i < a.rows(); ++i) EXPECT_EQ(a.row(i), b.row(i));  // the same picoseconds
        }
}

}  // namespace
}  // namespace niclab::grim
