// halo3d (Ember's Halo3D) on many nodes: every node opens a transport per neighbour of
// the process grid, faces of the right size cross in every iteration (each checked byte
// for byte by the transport, and by size and iteration tag by the program), and the
// rows count what was exchanged.
#include "exp_test_support.hpp"

namespace niclab::exp {
namespace {

system::SystemSpec seastars(uint32_t nodes, nlohmann::json topology = nullptr) {
    system::SystemSpec spec = testing::seastar_pair();
    spec.nodes = nodes;
    spec.topology = std::move(topology);
    return spec;
}

// GRIM's C firmware on every LANai, behind its crossbar.
system::SystemSpec grims(uint32_t nodes) {
    return system::SystemSpec::from_json(
        {{"system", "grim"}, {"nodes", nodes}, {"firmware", {std::string(NICLAB_FIRMWARE_DIR) + "/grim/grim.elf"}}});
}

// Faces between neighbours of an a × b × c grid that does not wrap, each sent both ways.
uint64_t messages(uint64_t a, uint64_t b, uint64_t c) {
    return 2 * ((a - 1) * b * c + a * (b - 1) * c + a * b * (c - 1));
}

TEST(Halo3d, EveryNodeExchangesItsFacesWithItsNeighboursEachIteration) {
    // 12 nodes: Ember's most cube-like grid is 3 × 2 × 2 (or a permutation of it).
    Result r = run_experiment("halo3d", seastars(12), {{"nx", 4}, {"ny", 6}, {"nz", 8}, {"iterations", 3}});
    ASSERT_EQ(r.rows(), 3u);
    const auto grid = r.params.at("grid").get<std::vector<uint32_t>>();
    ASSERT_EQ(grid.size(), 3u);
    EXPECT_EQ(grid[0] * grid[1] * grid[2], 12u);
    EXPECT_EQ(std::max({grid[0], grid[1], grid[2]}), 3u);
    const uint64_t expect = messages(grid[0], grid[1], grid[2]);
    // Faces of 8-byte cells: an x face is ny × nz cells, and so on.
    const auto face = r.params.at("face_bytes").get<std::vector<uint64_t>>();
    EXPECT_EQ(face, (std::vector<uint64_t>{6 * 8 * 8, 4 * 8 * 8, 4 * 6 * 8}));
    uint64_t bytes = 2 * (uint64_t(grid[0] - 1) * grid[1] * grid[2] * face[0] + uint64_t(grid[0]) * (grid[1] - 1) * grid[2] * face[1] +
                          uint64_t(grid[0]) * grid[1] * (grid[2] - 1) * face[2]);
    for (size_t i = 0; i < r.rows(); ++i) {
        EXPECT_EQ(r.row(i)[0], double(i + 1));
        EXPECT_EQ(r.row(i)[4], double(expect));
        EXPECT_EQ(r.row(i)[5], double(bytes));
        // A node takes longer than its compute for an iteration; the slowest at least the mean.
        EXPECT_GE(r.row(i)[3], r.row(i)[2]);
        EXPECT_GT(r.row(i)[2], 4 * 6 * 8 * 26 / 10.0 / 1e3);
    }
}

TEST(Halo3d, AMeshTopologyLendsItsDimensionsToTheGrid) {
    Result r = run_experiment("halo3d", seastars(8, {{"kind", "mesh"}, {"dims", {4, 2, 1}}}),
                              {{"nx", 2}, {"ny", 2}, {"nz", 2}, {"iterations", 1}});
    EXPECT_EQ(r.params.at("grid"), nlohmann::json({4, 2, 1}));
    EXPECT_EQ(r.row(0)[4], double(messages(4, 2, 1)));
}

// A SeaStar system naming no network past a pair is the most cube-like mesh of its nodes,
// the halo's own grid: the same times as that mesh named, other times than a line's.
TEST(Halo3d, ASeaStarSystemsOwnNetworkIsTheMeshItsGridAssumes) {
    const nlohmann::json options{{"nx", 2}, {"ny", 2}, {"nz", 2}, {"iterations", 2}};
    Result own = run_experiment("halo3d", seastars(12), options);
    EXPECT_EQ(own.params.at("grid"), nlohmann::json({2, 2, 3}));
    Result named = run_experiment("halo3d", seastars(12, {{"kind", "mesh"}, {"dims", {2, 2, 3}}}), options);
    Result line = run_experiment("halo3d", seastars(12, {{"kind", "mesh"}, {"dims", {12, 1, 1}}}), options);
    for (size_t i = 0; i < own.rows(); ++i) {
        EXPECT_EQ(own.row(i), named.row(i)) << "iteration " << i + 1;
        EXPECT_NE(own.row(i)[1], line.row(i)[1]) << "iteration " << i + 1;
    }
    EXPECT_EQ(net::Mesh3D::cube_like(10368), (std::array<uint32_t, 3>{18, 24, 24}));
}

TEST(Halo3d, MoreComputeMakesEachIterationLongerByIt) {
    auto first = [](double compute_us) {
        return run_experiment("halo3d", seastars(4), {{"nx", 2}, {"ny", 2}, {"nz", 2}, {"iterations", 2}, {"compute_us", compute_us}})
            .row(1)[2];
    };
    EXPECT_NEAR(first(50) - first(0), 50, 1.0);
}

TEST(Halo3d, TheSameSpecGivesTheSameTimes) {
    const nlohmann::json options = {{"nx", 3}, {"ny", 3}, {"nz", 3}, {"iterations", 2}};
    Result a = run_experiment("halo3d", seastars(8), options);
    Result b = run_experiment("halo3d", seastars(8), options);
    ASSERT_EQ(a.rows(), b.rows());
    for (size_t i = 0; i < a.rows(); ++i) EXPECT_EQ(a.row(i), b.row(i));
}

// Two settings that must not move a time give a busy halo, where events are never far
// apart, the same rows to the picosecond.
void expect_same_rows(const system::SystemSpec& a, const system::SystemSpec& b,
                      const nlohmann::json& options = {{"nx", 8}, {"ny", 8}, {"nz", 8}, {"iterations", 3}}) {
    Result x = run_experiment("halo3d", a, options);
    Result y = run_experiment("halo3d", b, options);
    ASSERT_EQ(x.rows(), options.at("iterations").get<size_t>());
    ASSERT_EQ(x.rows(), y.rows());
    for (size_t i = 0; i < x.rows(); ++i) EXPECT_EQ(x.row(i), y.row(i)) << "iteration " << i + 1;
}

// Each core running past other nodes' events (the kernel's lookahead, the default) or
// every core stopping at every event (the older kernel).
TEST(Halo3d, TheKernelsLookaheadChangesNoTime) {
    system::SystemSpec with = seastars(27, {{"kind", "mesh"}, {"dims", {3, 3, 3}}});
    system::SystemSpec without = with;
    without.lookahead = false;
    expect_same_rows(with, without);
}

// Behind switches of no node a core runs up to the earliest time plus two lookaheads
// (net::Network::cross_node_hops) rather than one: the same rows, for GRIM's LANai cores
// behind its crossbar and SeaStars behind a fat tree's switches. (Not against every core
// stopping at every event: that older kernel moves these figures, system_spec.hpp.)
TEST(Halo3d, TwoLookaheadsBehindSharedSwitchesChangeNoTime) {
    const auto with_one = [](system::SystemSpec spec) {
        spec.lookahead_hops = false;
        return spec;
    };
    for (const system::SystemSpec& two :
         {grims(12), seastars(12, {{"kind", "fat_tree"}, {"leaves", 3}, {"nodes_per_leaf", 4}, {"spines", 2}})}) {
        SCOPED_TRACE(two.to_json().dump());
        expect_same_rows(two, with_one(two));
    }
    // GRIM's 80 KB faces through its crossbar, contending, by each of its transports.
    for (const std::string transport : {"am", "rm-p", "rm-v"}) {
        SCOPED_TRACE(transport);
        expect_same_rows(grims(12), with_one(grims(12)),
                         {{"nx", 2}, {"ny", 100}, {"nz", 100}, {"iterations", 2}, {"transport", transport}});
    }
}

// Credits kept as times (the default) or an event per credit per hop, on a torus
// (net::NetworkParams::credit_events).
TEST(Halo3d, CreditsAsTimesChangeNoTime) {
    system::SystemSpec times = seastars(27, {{"kind", "torus"}, {"dims", {3, 3, 3}}});
    system::SystemSpec events = times;
    events.credit_events = true;
    expect_same_rows(times, events);
}

// A NIC's packets sent ahead on its busy cable (the default) or each waiting for the
// cable's wake-up (net::NetworkParams::send_ahead), Portals firmware on a torus.
TEST(Halo3d, SendingAheadChangesNoTime) {
    system::SystemSpec ahead = seastars(27, {{"kind", "torus"}, {"dims", {3, 3, 3}}});
    system::SystemSpec waiting = ahead;
    waiting.send_ahead = false;
    expect_same_rows(ahead, waiting);
}

// NIC cores running on through their private instructions past their horizons (the
// default) or stopping at them (SystemSpec::run_ahead), Portals firmware on a torus.
TEST(Halo3d, RunningAheadChangesNoTime) {
    system::SystemSpec ahead = seastars(27, {{"kind", "torus"}, {"dims", {3, 3, 3}}});
    system::SystemSpec stopping = ahead;
    stopping.run_ahead = false;
    expect_same_rows(ahead, stopping);
}

// Every node takes its neighbours' faces through one receive queue (StarT-X JAM, the
// T9000 VCP with several virtual links, the DSNIC driver) and hands each to its sender's
// transport, with its own buffers: an unequal grid puts nodes out of step.
TEST(Halo3d, RunsOverTheFixedFunctionSystemsToo) {
    for (const auto& [name, transport] : std::vector<std::pair<std::string, std::string>>{
             {"startx", "pio"}, {"startx", "pio64"}, {"startx", "vi"}, {"startx", "rdma"}, {"t9000", "vl"}, {"t9000", "vl2"},
             {"dsnic", "csp"}, {"dsnic", "csp_async"}}) {
        SCOPED_TRACE(name + " " + transport);
        system::SystemSpec spec = system::SystemSpec::from_json({{"system", name}, {"nodes", 12}});
        Result r = run_experiment("halo3d", spec, {{"nx", 2}, {"ny", 3}, {"nz", 4}, {"iterations", 2}, {"transport", transport}});
        const auto g = r.params.at("grid").get<std::vector<uint64_t>>();
        ASSERT_EQ(r.rows(), 2u);
        EXPECT_EQ(r.row(1)[4], double(messages(g[0], g[1], g[2])));
    }
}

// GRIM (C firmware on the LANai): a node's transports to its neighbours each take their
// own buffers, handler and notification word, so two neighbours' faces of one size never
// land on each other (each transport checks its peer's bytes). Faces of 80 KB cross the
// 63 KB fragment boundary (am reassembles, rm-p/rm-v write in two blocks).
TEST(Halo3d, RunsOverGrimWithATransportPerNeighbour) {
    for (const std::string transport : {"am", "rm-p", "rm-v"})
        for (const uint32_t side : {3u, 100u}) {
            SCOPED_TRACE(transport + " side " + std::to_string(side));
            Result r = run_experiment("halo3d", grims(12),
                                      {{"nx", 2}, {"ny", side}, {"nz", side}, {"iterations", 2}, {"transport", transport}});
            const auto g = r.params.at("grid").get<std::vector<uint64_t>>();
            ASSERT_EQ(r.rows(), 2u);
            EXPECT_EQ(r.row(1)[4], double(messages(g[0], g[1], g[2])));
            EXPECT_GT(r.row(1)[1], 0.0);
        }
}

TEST(Halo3d, AGridThatDoesNotHoldTheNodesIsRefusedNamingIt) {
    try {
        run_experiment("halo3d", seastars(8), {{"pex", 3}, {"pey", 1}, {"pez", 2}});
        ADD_FAILURE() << "no error";
    } catch (const ExperimentError& e) {
        EXPECT_NE(std::string(e.what()).find("pex × pey × pez = 3 × 1 × 2"), std::string::npos) << e.what();
    }
}

TEST(Halo3d, GetIsNotAHaloExchange) {
    try {
        run_experiment("halo3d", seastars(2), {{"op", "get"}});
        ADD_FAILURE() << "no error";
    } catch (const ExperimentError& e) {
        EXPECT_NE(std::string(e.what()).find("not fetched"), std::string::npos) << e.what();
    }
}

TEST(Halo3d, ARateOrTimeOutOfRangeIsRefusedNamingIt) {
    testing::expect_option_error("halo3d", {{"pe_gflops", 0}}, "pe_gflops");
    testing::expect_option_error("halo3d", {{"flops_per_cell", -1}}, "flops_per_cell");
    testing::expect_option_error("halo3d", {{"compute_us", -5}}, "compute_us");
}

TEST(Halo3d, UnknownOptionsAreErrorsNamingTheKey) { testing::expect_option_error("halo3d", {{"sizes", {8}}}, "sizes"); }

}  // namespace
}  // namespace niclab::exp
