// Ember's Halo3D motif (SST Ember, emberhalo3d.cc), the nearest-neighbour pattern of
// stencil codes: every node owns an nx × ny × nz block of a 3-D grid decomposed over a
// pex × pey × pez process grid (node = x + pex (y + pey z)) and, each iteration, computes
// and then exchanges its faces with its neighbours one dimension after the other: post
// both receives of the dimension, send both faces, wait for both. The grid does not wrap
// (a block on the boundary has no neighbour there), as in Ember. A face is
// fields_per_cell × datatype_width bytes per cell of the block's side (ny × nz cells for
// an x face). Ember's optional allreduce after each iteration is not done: the
// transports are point-to-point.
//
// Runs on every system: each node opens one transport (the system's host library) per
// neighbour, so the faces cross whatever network and topology the spec builds. With no
// process grid given, a spec whose topology is a 3-D (or 2-D, 1-D) mesh or torus of all
// the nodes lends its dimensions, so neighbours in the grid are neighbours in the
// network; otherwise the grid is the most cube-like factorisation of the node count
// (Ember's rule).
//
// One row per iteration: the machine's time for it (from the last node to finish the
// previous iteration, or the common start, to the last node to finish this one), the
// nodes' mean and largest own time for it, and the messages and bytes exchanged.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "niclab/exp/programs.hpp"
#include "niclab/net/topology.hpp"

namespace niclab::exp {

namespace {

using Grid = std::array<uint32_t, 3>;

// The dimensions of a mesh or torus topology that holds exactly `nodes`, if the spec has one.
std::optional<Grid> topology_grid(const system::SystemSpec& spec) {
    const auto& t = spec.topology;
    if (!t.is_object() || !t.contains("kind") || !t.contains("dims") || !t["dims"].is_array()) return std::nullopt;
    const std::string kind = t["kind"].is_string() ? t["kind"].get<std::string>() : "";
    if ((kind != "mesh" && kind != "torus") || t["dims"].size() > 3) return std::nullopt;
    Grid g{1, 1, 1};
    for (size_t i = 0; i < t["dims"].size(); ++i) {
        if (!t["dims"][i].is_number_integer() || t["dims"][i].get<int64_t>() < 1) return std::nullopt;
        g[i] = t["dims"][i].get<uint32_t>();
    }
    if (uint64_t(g[0]) * g[1] * g[2] != spec.nodes) return std::nullopt;
    return g;
}

constexpr const char* kAxis = "xyz";

}  // namespace

Result run_halo3d(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer) {
    Options o("halo3d", options);
    const Grid block{uint32_t(o.unsigned_int("nx", 16, 1u << 16)), uint32_t(o.unsigned_int("ny", 16, 1u << 16)),
                     uint32_t(o.unsigned_int("nz", 16, 1u << 16))};
    Grid pe{uint32_t(o.unsigned_int("pex", 0)), uint32_t(o.unsigned_int("pey", 0)), uint32_t(o.unsigned_int("pez", 0))};
    const uint64_t fields = o.unsigned_int("fields_per_cell", 1, 1024);
    const uint64_t width = o.unsigned_int("datatype_width", 8, 1024);
    const uint32_t iterations = uint32_t(o.unsigned_int("iterations", 10, 1'000'000));
    // Ember's compute time: the block's flops at the processor's rate (its defaults: 26
    // flops per cell, 10 GFLOP/s), unless given.
    const double flops_per_cell = o.number("flops_per_cell", 26);
    const double pe_gflops = o.number("pe_gflops", 10);
    const double compute_us = o.number("compute_us", double(block[0]) * block[1] * block[2] * fields * flops_per_cell / pe_gflops / 1e3);
    Everyone everyone{o.text("transport", "", {}), o.text("op", "", {})};
    o.reject_unknown();
    if (!(pe_gflops > 0) || !std::isfinite(pe_gflops)) throw ExperimentError("halo3d: option 'pe_gflops' must be a rate > 0");
    if (!(flops_per_cell >= 0) || !std::isfinite(flops_per_cell))
        throw ExperimentError("halo3d: option 'flops_per_cell' must be a count >= 0");
    if (!(compute_us >= 0) || !std::isfinite(compute_us)) throw ExperimentError("halo3d: option 'compute_us' must be a time >= 0");

    const bool given = pe[0] || pe[1] || pe[2];
    if (given && uint64_t(pe[0]) * pe[1] * pe[2] != spec.nodes)
        throw ExperimentError("halo3d: the process grid pex × pey × pez = " + std::to_string(pe[0]) + " × " + std::to_string(pe[1]) +
                              " × " + std::to_string(pe[2]) + " must hold the system's " + std::to_string(spec.nodes) + " nodes");
    if (!given) pe = topology_grid(spec).value_or(net::Mesh3D::cube_like(spec.nodes));  // Ember's choice
    if (spec.nodes < 2) throw ExperimentError("halo3d: needs at least 2 nodes (the system has " + std::to_string(spec.nodes) + ")");
    // An x face is ny × nz cells, and so on.
    const std::array<uint64_t, 3> face{uint64_t(block[1]) * block[2] * fields * width, uint64_t(block[0]) * block[2] * fields * width,
                                       uint64_t(block[0]) * block[1] * fields * width};

    Result result("halo3d", {{"iteration", ""},
                             {"iteration_us", "us"},
                             {"node_mean_us", "us"},
                             {"node_max_us", "us"},
                             {"messages", ""},
                             {"bytes", "B"}});
    result.params = o.used();
    result.params["grid"] = pe;  // the process grid, chosen or given
    result.params["face_bytes"] = face;
    result.planned = iterations;
    Bench bench(spec, result, observer, everyone);
    if (bench.get()) throw ExperimentError("halo3d: faces are sent (op '" + bench.pair().op + "'), not fetched: choose a sending op");
    for (int d = 0; d < 3; ++d) bench.check_size("nx, ny, nz", face[d]);

    // Every node's neighbours, down and up along each axis (null on the boundary), and
    // a transport to each; the transports of one node are opened in the same order on
    // every system, x down first.
    const uint32_t nodes = spec.nodes;
    std::vector<std::array<msg::Transport*, 6>> links(nodes);
    uint64_t messages = 0, bytes = 0;  // per iteration, all nodes
    for (uint32_t n = 0; n < nodes; ++n) {
        const Grid at{n % pe[0], n / pe[0] % pe[1], n / (pe[0] * pe[1])};
        for (int d = 0; d < 3; ++d)
            for (int up = 0; up < 2; ++up) {
                msg::Transport*& t = links[n][2 * d + up];
                t = nullptr;
                if (up ? at[d] + 1 == pe[d] : at[d] == 0) continue;
                Grid there = at;
                there[d] = up ? at[d] + 1 : at[d] - 1;
                t = &bench.open(n, there[0] + pe[0] * (there[1] + pe[1] * there[2]));
                ++messages;
                bytes += face[d];
            }
    }

    // Each node's time at the end of each iteration (index 0: the common start).
    std::vector<std::vector<Time>> ends(nodes, std::vector<Time>(iterations + 1));
    std::vector<uint32_t> finished(iterations + 1, 0);
    uint32_t opened = 0;
    Time start{};
    auto iteration_row = [&](uint32_t i) {
        Time last{}, last_before{};
        double sum = 0, longest = 0;
        for (uint32_t n = 0; n < nodes; ++n) {
            last = std::max(last, ends[n][i]);
            last_before = std::max(last_before, ends[n][i - 1]);
            const double own = (ends[n][i] - ends[n][i - 1]).as_us();
            sum += own;
            longest = std::max(longest, own);
        }
        return std::vector<double>{double(i), (last - last_before).as_us(), sum / nodes, longest, double(messages), double(bytes)};
    };

    bench.run_nodes([&](host::ProcessContext& ctx, uint32_t n) {
        auto& mine = links[n];
        for (int k = 0; k < 6; ++k)
            if (mine[k]) {
                mine[k]->open(ctx, face[k / 2]);
                mine[k]->prepare_send(ctx, face[k / 2]);  // the same face every iteration
            }
        // Start together once every node is set up: the last to be names a time just
        // ahead, which the others see by looking every microsecond (a wake-up sent from
        // one node straight to the others would outrun the network, which the kernel's
        // lookahead rests on).
        if (++opened == nodes) start = ctx.now() + Time::us(1);
        while (start == Time{}) ctx.sleep_for(Time::us(1));
        ctx.sleep_until(start);
        ends[n][0] = ctx.now();
        for (uint32_t i = 1; i <= iterations && !bench.stopping(); ++i) {
            if (compute_us > 0) ctx.compute(Time::ps(int64_t(std::llround(compute_us * 1e6))));
            for (int d = 0; d < 3; ++d) {
                for (int up = 0; up < 2; ++up)
                    if (auto* t = mine[2 * d + up]) t->send(ctx, i);
                for (int up = 0; up < 2; ++up)
                    if (auto* t = mine[2 * d + up]) {
                        const msg::Received got = t->recv(ctx);
                        if (got.bytes != face[d] || got.tag != i)
                            throw msg::TransportError("node " + std::to_string(n) + ": the " + kAxis[d] + (up ? "+" : "-") +
                                                      " face from node " + std::to_string(t->peer()) + " in iteration " +
                                                      std::to_string(i) + " should be " + std::to_string(face[d]) +
                                                      " B tagged " + std::to_string(i) + ", but " + std::to_string(got.bytes) +
                                                      " B tagged " + std::to_string(got.tag) + " came");
                    }
                for (int up = 0; up < 2; ++up)
                    if (auto* t = mine[2 * d + up]) t->wait_sends(ctx);
            }
            ends[n][i] = ctx.now();
            if (++finished[i] == nodes) bench.publish(ctx, iteration_row(i));
        }
    });
    return result;
}

}  // namespace niclab::exp
