// net_throughput: the network alone under uniform random saturation traffic.
#include <gtest/gtest.h>

#include "niclab/exp/experiments.hpp"
#include "niclab/system/system_spec.hpp"

namespace niclab::exp {
namespace {

using nlohmann::json;

system::SystemSpec startx(uint32_t nodes, uint64_t seed = 0) {
    return system::SystemSpec::from_json({{"system", "startx"}, {"nodes", nodes}, {"seed", seed}});
}

std::string error_of(const system::SystemSpec& spec, const json& options) {
    try {
        run_experiment("net_throughput", spec, options);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

TEST(NetThroughput, SaturatesTheFatTreeAndChecksEveryByte) {
    const Result r = run_experiment("net_throughput", startx(16), {{"sizes", {8, 88}}, {"measure_us", 100}});
    ASSERT_EQ(r.rows(), 2u);
    const auto tp = r.column("throughput_mb_s");
    const auto frac = r.column("fraction");
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_GT(tp[i], 0);
        EXPECT_GT(frac[i], 0.1);
        EXPECT_LE(frac[i], 1.0);
    }
    // Longer packets spread the per-packet overhead (header and CRC) thinner.
    EXPECT_GT(tp[1], tp[0]);
    EXPECT_EQ(r.column("acks_per_packet"), std::vector<double>(2, 0.0));
    EXPECT_EQ(r.system.at("system"), "startx");
}

TEST(NetThroughput, AcknowledgementsCostThroughput) {
    const json base = {{"sizes", {32}}, {"measure_us", 100}};
    json acked = base;
    acked["ack_every"] = 1;
    const Result plain = run_experiment("net_throughput", startx(16), base);
    const Result with_acks = run_experiment("net_throughput", startx(16), acked);
    EXPECT_NEAR(with_acks.column("acks_per_packet")[0], 1.0, 0.05);
    EXPECT_LT(with_acks.column("throughput_mb_s")[0], plain.column("throughput_mb_s")[0]);
    json more = acked;
    more["protocol_bytes"] = 16;
    EXPECT_LT(run_experiment("net_throughput", startx(16), more).column("throughput_mb_s")[0],
              with_acks.column("throughput_mb_s")[0]);
}

TEST(NetThroughput, ASlowSourceOffersOnePacketPerDispatchTime) {
    // 32 bytes every 10 us is 3.2 MB/s per terminal, far below what the fat tree carries.
    const Result r = run_experiment("net_throughput", startx(16), {{"sizes", {32}}, {"measure_us", 200}, {"dispatch_ns", 10000}});
    EXPECT_NEAR(r.column("throughput_mb_s")[0], 3.2, 0.1);
}

TEST(NetThroughput, DeterministicForASeed) {
    const json o = {{"sizes", {16, 64}}, {"measure_us", 50}};
    const Result a = run_experiment("net_throughput", startx(16, 7), o);
    const Result b = run_experiment("net_throughput", startx(16, 7), o);
    for (size_t i = 0; i < a.rows(); ++i) EXPECT_EQ(a.row(i), b.row(i));
    const Result c = run_experiment("net_throughput", startx(16, 8), o);
    EXPECT_NE(a.row(0), c.row(0));
}

TEST(NetThroughput, RefusesWhatItCannotRun) {
    EXPECT_NE(error_of(startx(16), {{"sizes", {97}}}).find("option 'sizes' holds 97"), std::string::npos);
    EXPECT_NE(error_of(startx(16), {{"sizes", {97}}}).find("net.max_payload"), std::string::npos);
    EXPECT_NE(error_of(startx(1), json::object()).find("'nodes'"), std::string::npos);
    EXPECT_NE(error_of(startx(16), {{"routing", "random"}}).find("routing"), std::string::npos);
    EXPECT_NE(error_of(startx(16), {{"measure_us", 0}}).find("measure_us"), std::string::npos);
    EXPECT_NE(error_of(startx(16), {{"dispatch_ns", -1}}).find("dispatch_ns"), std::string::npos);
}

}  // namespace
}  // namespace niclab::exp
