// The NetPIPE-style sweeps on the two-node SeaStar running the C Portals firmware:
// real puts and gets through the whole stack, with the payload checked.
#include <gtest/gtest.h>

#include "exp_test_support.hpp"
#include "niclab/exp/experiments.hpp"
#include "niclab/exp/schedule.hpp"

using namespace niclab;
using namespace niclab::exp;
using namespace niclab::exp::testing;

namespace {

TEST(Schedule, NetpipeSizesFollowNetpipesLoop) {
    const std::vector<uint64_t> want = {1, 2, 3, 4, 6, 8, 12, 13, 16, 19, 21, 24, 27, 29, 32, 35, 45, 48, 51, 61, 64, 67};
    EXPECT_EQ(netpipe_sizes(67), want);
    auto big = netpipe_sizes(8u << 20);
    EXPECT_EQ(big.back(), 8u << 20);
    EXPECT_TRUE(std::is_sorted(big.begin(), big.end()));
}

TEST(Schedule, OsuSizesArePowersOfTwoFromZero) {
    EXPECT_EQ(osu_sizes(16), (std::vector<uint64_t>{0, 1, 2, 4, 8, 16}));
    EXPECT_EQ(osu_sizes(16, false), (std::vector<uint64_t>{1, 2, 4, 8, 16}));
}

TEST(PingPong, PutLatencyAndBandwidthPerSize) {
    auto r = run_experiment("pingpong", seastar_pair(), {{"sizes", {1, 12, 16, 4096}}});
    ASSERT_EQ(r.rows(), 4u);
    auto lat = r.column("latency_us"), bw = r.column("bandwidth_mb_s");
    for (size_t i = 0; i < r.rows(); ++i) std::printf("put %6.0f B  %8.3f us  %8.2f MB/s\n", r.column("size")[i], lat[i], bw[i]);
    // Seed 001 §6: the 12-byte payload rides in the header (one interrupt); 16 bytes needs two.
    EXPECT_LT(lat[1] + 1.0, lat[2]);
    EXPECT_GT(lat[3], lat[2]);
    EXPECT_NEAR(bw[3], 4096 / lat[3], 1e-9);
    EXPECT_FALSE(r.stopped);
    EXPECT_EQ(r.firmware.size(), 2u);
    EXPECT_FALSE(r.firmware[0]["build_id"].get<std::string>().empty());
}

TEST(PingPong, GetLatencyIsHalfAGet) {
    auto r = run_experiment("pingpong", seastar_pair(), {{"op", "get"}, {"sizes", {1, 65536}}});
    ASSERT_EQ(r.rows(), 2u);
    auto time = r.column("time_us"), lat = r.column("latency_us");
    std::printf("get 1 B %.3f us (get %.3f us); 64 KiB %.3f us\n", lat[0], time[0], lat[1]);
    EXPECT_DOUBLE_EQ(lat[0], time[0] / 2);
}

TEST(PingPong, EachPointSaysHowItsRepeatsSpread) {
    // The mean of a point lies between its least and most transfer, the median too;
    // a 1-byte put's first timed round trip pays for a path the warm-up did not heat
    // fully, so the spread is real, not a copy of the mean.
    auto r = run_experiment("pingpong", seastar_pair(), {{"sizes", {1, 1024}}, {"warmup", 0}});
    auto lat = r.column("latency_us"), lo = r.column("latency_min_us"), mid = r.column("latency_median_us"),
         hi = r.column("latency_max_us");
    for (size_t i = 0; i < r.rows(); ++i) {
        EXPECT_LE(lo[i], lat[i]);
        EXPECT_LE(lat[i], hi[i]);
        EXPECT_LE(lo[i], mid[i]);
        EXPECT_LE(mid[i], hi[i]);
    }
    EXPECT_LT(lo[0], hi[0]);
    auto b = run_experiment("bidir", seastar_pair(), {{"sizes", {64}}});
    EXPECT_LE(b.column("latency_min_us")[0], b.column("latency_us")[0]);
    EXPECT_GE(b.column("latency_max_us")[0], b.column("latency_us")[0]);
    // Streaming times a burst, not single messages: no spread columns.
    EXPECT_FALSE(run_experiment("stream", seastar_pair(), {{"sizes", {64}}}).has_column("latency_min_us"));
}

TEST(Stream, BackToBackPutsBeatPingPongBandwidth) {
    const nlohmann::json opts = {{"sizes", {4096}}};
    auto pp = run_experiment("pingpong", seastar_pair(), opts);
    auto st = run_experiment("stream", seastar_pair(), opts);
    std::printf("4 KiB: ping-pong %.1f MB/s, stream %.1f MB/s\n", pp.column("bandwidth_mb_s")[0], st.column("bandwidth_mb_s")[0]);
    EXPECT_GT(st.column("bandwidth_mb_s")[0], pp.column("bandwidth_mb_s")[0]);
}

TEST(Bidir, BothDirectionsCount) {
    auto uni = run_experiment("pingpong", seastar_pair(), {{"sizes", {1 << 20}}});
    auto bi = run_experiment("bidir", seastar_pair(), {{"sizes", {1 << 20}}});
    std::printf("1 MiB: uni %.1f MB/s, bidir %.1f MB/s\n", uni.column("bandwidth_mb_s")[0], bi.column("bandwidth_mb_s")[0]);
    EXPECT_GT(bi.column("bandwidth_mb_s")[0], 1.5 * uni.column("bandwidth_mb_s")[0]);
}

TEST(Observer, SeesEveryPointAndCanStop) {
    std::vector<size_t> seen;
    auto r = run_experiment("pingpong", seastar_pair(), {{"sizes", {1, 2, 3, 4, 5}}}, Observe{[&](const Result& res) {
        seen.push_back(res.rows());
        return res.rows() < 2;
    }});
    EXPECT_EQ(seen, (std::vector<size_t>{1, 2}));
    EXPECT_EQ(r.rows(), 2u);
    EXPECT_TRUE(r.stopped);
}

TEST(Errors, NameTheProblem) {
    try {
        run_experiment("pingpong", seastar_pair(), {{"sizez", {1}}});
        FAIL();
    } catch (const ExperimentError& e) {
        EXPECT_NE(std::string(e.what()).find("unknown option 'sizez'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(run_experiment("pingpang", seastar_pair(), {}), ExperimentError);
    EXPECT_THROW(run_experiment("pingpong", seastar_pair(), {{"op", "send"}}), ExperimentError);
    EXPECT_THROW(run_experiment("pingpong", seastar_pair(), {{"server", 5}}), ExperimentError);
}

TEST(Determinism, SameSpecSameResult) {
    auto a = run_experiment("pingpong", seastar_pair(), {{"sizes", {1, 1000}}});
    auto b = run_experiment("pingpong", seastar_pair(), {{"sizes", {1, 1000}}});
    EXPECT_EQ(a.to_json(), b.to_json());
}

}  // namespace
