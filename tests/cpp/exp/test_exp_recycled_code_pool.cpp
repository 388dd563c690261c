// A simulation's code pool outlives it (core::CodePool::take): the next system the process
// builds takes the pool the last one gave back, its firmware's code decoded and translated,
// and measures exactly what a system on a fresh pool does - whatever ran on the pool before.
#include "exp_test_support.hpp"

#include "niclab/core/code_pool.hpp"
#include "niclab/system/system.hpp"
#include "test_fork.hpp"

namespace niclab::exp {
namespace {

// Recycling as the process has it by default, whatever a test set.
struct RecycledCodePool : ::testing::Test {
    void TearDown() override { core::CodePool::set_recycling(true); }
};

// What a SeaStar pair's boot translates on a fresh pool (its constructor boots the firmware).
uint64_t booted_fresh() {
    core::CodePool::set_recycling(false);  // and the pools kept from before go
    system::System sys(testing::seastar_pair());
    core::CodePool::set_recycling(true);
    return sys.code_pool().translated_slots();
}

// A ping-pong, whose system gives its pool back when it ends: the boot's code and the
// Portals main loop's, translated.
void ping_pong() { run_experiment("pingpong", testing::seastar_pair(), {{"sizes", {8}}}); }

TEST_F(RecycledCodePool, TheNextSystemTakesThePoolTheLastOneGaveBack) {
    const uint64_t booted = booted_fresh();
    ASSERT_GT(booted, 0u) << "the boot translated nothing";
    ping_pong();
    system::System next(testing::seastar_pair());
    const uint64_t kept = next.code_pool().translated_slots();
    EXPECT_GT(kept, booted) << "not the ping-pong's pool: its main loop was not translated";
    // Two live systems never share one: the second takes a new pool (none is kept now).
    {
        system::System beside(testing::seastar_pair());
        EXPECT_NE(&beside.code_pool(), &next.code_pool());
        EXPECT_EQ(beside.code_pool().translated_slots(), booted);
    }
    ping_pong();  // systems built and gone beside it, on the pool beside gave back
    EXPECT_EQ(next.code_pool().translated_slots(), kept) << "another system translated into next's pool";
}

TEST_F(RecycledCodePool, OffEverySystemStartsFromAFreshPool) {
    const uint64_t booted = booted_fresh();
    ping_pong();
    core::CodePool::set_recycling(false);
    system::System next(testing::seastar_pair());
    EXPECT_EQ(next.code_pool().translated_slots(), booted);
}

// The rows and every node's counters of a ping-pong and a streaming test, on a fresh pool
// and on a pool that ran other firmware and other experiments first: the accelerated
// Portals build, then the same experiments, then the GRIM image.
TEST_F(RecycledCodePool, ARecycledPoolMeasuresWhatAFreshOneDoes) {
    Observe observe;
    observe.counters = true;
    const auto run = [&](const std::string& experiment, const nlohmann::json& options) {
        return run_experiment(experiment, testing::seastar_pair(), options, observe).to_json();
    };
    const std::vector<std::pair<std::string, nlohmann::json>> cases{
        {"pingpong", {{"sizes", {0, 8, 1024, 20000}}}},
        {"stream", {{"sizes", {8, 8192}}}},
    };
    core::CodePool::set_recycling(false);
    std::vector<nlohmann::json> fresh;
    for (const auto& [experiment, options] : cases) fresh.push_back(run(experiment, options));
    core::CodePool::set_recycling(true);
    run_experiment("pingpong", testing::seastar_pair("portals_accel"), {{"sizes", {8}}, {"transport", "portals_accel"}});
    for (int round = 0; round < 2; ++round) {
        for (size_t i = 0; i < cases.size(); ++i) {
            SCOPED_TRACE(cases[i].first + " round " + std::to_string(round));
            const nlohmann::json recycled = run(cases[i].first, cases[i].second);
            ASSERT_GT(recycled.at("rows").size(), 0u);
            EXPECT_EQ(recycled.at("rows"), fresh[i].at("rows"));
            const nlohmann::json changed = nlohmann::json::diff(fresh[i].at("observations"), recycled.at("observations"));
            EXPECT_TRUE(changed.empty()) << "observations that moved (a JSON patch from fresh to recycled): " << changed.dump();
        }
        system::SystemSpec grim = system::SystemSpec::from_json({{"system", "grim"}, {"nodes", 2}});
        grim.firmware = {std::string(NICLAB_FIRMWARE_DIR) + "/grim/grim.elf"};
        run_experiment("pingpong", grim, {{"sizes", {8}}});
    }
}

// A fork while another thread takes and gives back pools (a simulation ending on a thread
// of its own while a sweep forks its workers) leaves the child able to take one: the lock
// is not inherited held. A child that does not exit within its alarm waited on it.
TEST_F(RecycledCodePool, AForkWhileAnotherThreadGivesAPoolBackLeavesTheChildAbleToTakeOne) {
    const auto seen = niclab::test::fork_while_busy(
        2000, 10, [] { core::CodePool::Lease lease = core::CodePool::take(); },
        [] { return core::CodePool::take() ? 0 : 1; });
    EXPECT_EQ(seen.stuck, 0) << "a forked child could not take a code pool (fork " << seen.forks << " of 2000)";
}

}  // namespace
}  // namespace niclab::exp
