// The CPU load of communication (seed 003 §8.4, §10.1): a computing process beside the
// realtime communicating one, on both hosts of the two-node SeaStar.
#include <gtest/gtest.h>

#include <cstdio>

#include "exp_test_support.hpp"
#include "niclab/exp/experiments.hpp"

using namespace niclab;
using namespace niclab::exp;
using namespace niclab::exp::testing;

namespace {

const nlohmann::json kSizes = {8, 1024, 65536, 1048576};

void print(const Result& r) {
    for (size_t i = 0; i < r.rows(); ++i)
        std::printf("%8.0f B  t_n %9.3f us  load %6.2f %% / %6.2f %%  c_n %6.3f us\n", r.column("size")[i],
                    r.column("latency_us")[i], r.column("load_percent")[i], r.column("load_percent_server")[i],
                    r.column("cpu_us_per_msg")[i]);
    std::printf("%s\n", r.fit.dump().c_str());
}

void check_loads(const Result& r) {
    const auto client = r.column("load_percent"), server = r.column("load_percent_server");
    for (size_t i = 0; i < r.rows(); ++i) {
        // Interrupts cannot be turned off, so communication always costs something.
        EXPECT_GT(client[i], 0);
        EXPECT_GT(server[i], 0);
        EXPECT_LT(client[i], 100);
        EXPECT_LT(server[i], 100);
    }
    // Small messages load the host more than large ones (seed 003 §8.4).
    EXPECT_GT(client.front(), 5 * client.back());
    EXPECT_GT(server.front(), 5 * server.back());
    for (size_t i = 0; i < r.rows(); ++i)
        EXPECT_NEAR(r.column("cpu_us_per_msg")[i], client[i] / 100 * r.column("latency_us")[i], 1e-9);
}

TEST(CpuLoad, Comms1LoadsBothHosts) {
    auto r = run_experiment("cpu_load", seastar_pair(), {{"sizes", kSizes}});
    print(r);
    ASSERT_EQ(r.rows(), 4u);
    check_loads(r);
    // The communicating process is realtime: the computation does not slow it down.
    auto c1 = run_experiment("comms1", seastar_pair(), {{"sizes", kSizes}});
    for (size_t i = 0; i < r.rows(); ++i) EXPECT_NEAR(r.column("latency_us")[i], c1.column("latency_us")[i], 0.02 * c1.column("latency_us")[i]);
    ASSERT_FALSE(r.fit.contains("error")) << r.fit.dump();
    const double c0 = r.fit["c0_us"], t0 = r.fit["t0_us"];
    EXPECT_GT(c0, 0);
    EXPECT_LE(c0, t0);  // seed 003 §10.1: 0 <= c0 <= t0
    EXPECT_GT(double(r.fit["l0_percent"]), 0);
    EXPECT_GT(double(r.fit["r_inf_mb_s"]), 0);
}

TEST(CpuLoad, Comms2AndGet) {
    auto r = run_experiment("cpu_load", seastar_pair(), {{"sizes", kSizes}, {"pattern", "comms2"}});
    print(r);
    check_loads(r);
    auto g = run_experiment("cpu_load", seastar_pair(), {{"sizes", kSizes}, {"op", "get"}, {"quantum_us", 0.5}});
    print(g);
    check_loads(g);
}

TEST(CpuLoad, ObserverStopsAndComputationEnds) {
    size_t calls = 0;
    auto r = run_experiment("cpu_load", seastar_pair(), {{"sizes", kSizes}}, Observe{[&](const Result&) { return ++calls < 2; }});
    EXPECT_EQ(r.rows(), 2u);
    EXPECT_TRUE(r.stopped);
}

TEST(CpuLoad, OptionErrorsNameTheKey) {
    expect_option_error("cpu_load", {{"pattern", "comms3"}}, "pattern");
    expect_option_error("cpu_load", {{"quantum_us", 0}}, "quantum_us");
    expect_option_error("cpu_load", {{"quantum", 1}}, "quantum");
}

TEST(CpuLoad, Deterministic) {
    const nlohmann::json opts = {{"sizes", {8, 65536}}};
    EXPECT_EQ(run_experiment("cpu_load", seastar_pair(), opts).to_json(), run_experiment("cpu_load", seastar_pair(), opts).to_json());
}

}  // namespace

// Seed 003 §8.4: the computation as a separate process pays the address-space switch
// each time the communicating process hands the core back; as a thread it does not.
TEST(CpuLoad, AComputingProcessCostsMoreThanAThread) {
    auto spec = seastar_pair();
    spec.overrides = {{"host.context_switch_ns", 1000}, {"host.address_space_switch_ns", 20000}};
    const nlohmann::json sizes = {8};
    auto proc = run_experiment("cpu_load", spec, {{"sizes", sizes}, {"compute", "process"}});
    auto thread = run_experiment("cpu_load", spec, {{"sizes", sizes}, {"compute", "thread"}});
    print(proc);
    print(thread);
    EXPECT_GT(proc.column("load_percent")[0], thread.column("load_percent")[0] + 5);
    // Without switch costs the two are the same run.
    auto p0 = run_experiment("cpu_load", seastar_pair(), {{"sizes", sizes}, {"compute", "process"}});
    auto t0 = run_experiment("cpu_load", seastar_pair(), {{"sizes", sizes}, {"compute", "thread"}});
    EXPECT_EQ(p0.column("load_percent")[0], t0.column("load_percent")[0]);
    EXPECT_THROW(run_experiment("cpu_load", seastar_pair(), {{"sizes", sizes}, {"compute", "fiber"}}), ExperimentError);
}
