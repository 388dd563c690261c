// Result: lossless JSON round trip, CSV with its metadata header, the OSU and NetPIPE
// text formats, and errors that name the key.
#include <gtest/gtest.h>

#include <cmath>

#include "niclab/exp/result.hpp"

using namespace niclab::exp;

namespace {

Result sample() {
    Result r("pingpong", {{"size", "B"}, {"repeats", ""}, {"time_us", "us"}, {"latency_us", "us"}, {"bandwidth_mb_s", "MB/s"}});
    r.add_row({1, 20, 5.288123456789, 5.288123456789, 1 / 5.288123456789});
    r.add_row({4096, 20, 10.369, 10.369, 4096 / 10.369});
    r.add_row({8, 1, NAN, NAN, NAN});  // a point that could not be measured
    r.params = {{"op", "put"}, {"sizes", {1, 4096, 8}}};
    r.system = {{"preset", "seastar"}, {"nodes", 2}};
    r.firmware = {{{"node", 0}, {"build_id", "abc"}}};
    r.seed = 7;
    r.fit = {{"t0_us", 5.0}};
    r.stopped = true;
    r.planned = 5;
    return r;
}

TEST(Result, JsonRoundTripIsLossless) {
    const Result r = sample();
    const Result back = Result::from_json(nlohmann::json::parse(r.to_json().dump()));
    EXPECT_EQ(back.to_json(), r.to_json());
    EXPECT_EQ(back.row(0)[2], 5.288123456789);  // every bit of the double
    EXPECT_TRUE(std::isnan(back.row(2)[3]));
    EXPECT_TRUE(back.stopped);
    EXPECT_EQ(back.planned, 5u);
    EXPECT_EQ(back.seed, 7u);
}

TEST(Result, CsvHasTheMetadataAsCommentsThenTheRows) {
    const std::string csv = sample().to_csv();
    EXPECT_NE(csv.find("# niclab pingpong result; seed 7; stopped early\n"), std::string::npos);
    EXPECT_NE(csv.find("# firmware: [{\"build_id\":\"abc\",\"node\":0}]"), std::string::npos);
    EXPECT_NE(csv.find("size,repeats,time_us,latency_us,bandwidth_mb_s\n1,20,5.288123456789,"), std::string::npos);
    EXPECT_NE(csv.find("8,1,nan,nan,nan\n"), std::string::npos);
}

TEST(Result, OsuAndNetpipeTextFormats) {
    const Result r = sample();
    const std::string osu = r.osu_text("latency_us");
    EXPECT_NE(osu.find("# Size            Latency (us)\n"), std::string::npos) << osu;
    EXPECT_NE(osu.find("4096                     10.37\n"), std::string::npos) << osu;
    EXPECT_NE(r.osu_text("bandwidth_mb_s").find("Bandwidth (MB/s)"), std::string::npos);
    const std::string np = r.netpipe_text();
    // bytes, Mbps (MB/s * 8), usec
    EXPECT_EQ(np.substr(0, np.find('\n')), "        1       1.51282398       5.28812346");
}

TEST(Result, ErrorsNameTheKeyOrColumn) {
    const Result r = sample();
    try {
        r.column("latency");
        FAIL();
    } catch (const ResultError& e) {
        EXPECT_NE(std::string(e.what()).find("no column 'latency' (it has: size, repeats"), std::string::npos) << e.what();
    }
    auto j = r.to_json();
    j.erase("columns");
    try {
        Result::from_json(j);
        FAIL();
    } catch (const ResultError& e) {
        EXPECT_NE(std::string(e.what()).find("missing key 'columns'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(Result::from_json({{"format", "something else"}}), ResultError);
    Result bad = sample();
    EXPECT_THROW(bad.add_row({1, 2}), ResultError);
}

}  // namespace
