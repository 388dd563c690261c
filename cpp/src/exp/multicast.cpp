// GRIM's multicast benchmark (seed 004 §8.1.7, L2091-2099; Figs 8.7-8.8): node 0
// sends a message of S bytes to a group of G hosts, each receiver answers at once
// with a null unicast active message; node 0 measures its injection time (the
// library calls that put the message, or its copies, into the NI) and the round trip
// until every reply is in. Two methods each point: the native NI multicast (one
// injection; the NIs replicate it along the binary tree, §8.1.4) and G-1 unicast
// copies injected by node 0 (L2093).
//
// assumption: a group of G hosts is nodes 0..G-1, all subscribed, so the tree has G
// NIs (Fig. 8.8's depths: 2-3 and 4-7 hosts converge, L2099) and the sender's NI is
// its root (the thesis does not say which host is root); the sender's own copy is
// delivered to it and not answered; G-1 receivers reply. One tree per group size,
// subscribed before the timed run.
//
// GRIM only: the multicast is GRIM's host library and firmware (grim::Multicast).
#include <algorithm>

#include "niclab/exp/programs.hpp"
#include "niclab/systems/grim/grim.hpp"

namespace niclab::exp {

namespace {
constexpr uint64_t kSrc = 0x2000'0000;  // the sender's message buffer in host memory
}

Result run_multicast(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer) {
    Options o("multicast", options);
    std::vector<uint64_t> sizes = o.unsigned_list("sizes");
    std::vector<uint64_t> groups = o.unsigned_list("groups");
    const uint32_t repeats = uint32_t(o.unsigned_int("repeats", 3, 1000));
    Everyone everyone{o.text("transport", "", {}), o.text("op", "", {})};
    o.reject_unknown();
    if (sizes.empty()) sizes = {4, 256, 1024, 4096, 16384, 65536 - 1024};
    if (groups.empty())
        for (uint32_t g = 2; g <= spec.nodes; ++g) groups.push_back(g);
    for (uint64_t s : sizes)
        if (s > GRIM_MTU)
            throw ExperimentError("multicast: option 'sizes': " + std::to_string(s) + " B is more than GRIM's MTU of " +
                                  std::to_string(GRIM_MTU) + " B (a multicast is one message; §8.2.3's fragmentation is not built)");
    for (uint64_t g : groups)
        if (g < 2 || g > spec.nodes)
            throw ExperimentError("multicast: option 'groups': a group of " + std::to_string(g) + " hosts needs 2 to " +
                                  std::to_string(spec.nodes) + " (the system's nodes)");
    std::sort(groups.begin(), groups.end());

    Result result("multicast", {{"hosts", ""},
                                {"bytes", "B"},
                                {"native_rtt_us", "us"},
                                {"native_inject_us", "us"},
                                {"unicast_rtt_us", "us"},
                                {"unicast_inject_us", "us"}});
    result.params = o.used();
    result.params["sizes"] = sizes;
    result.params["groups"] = groups;
    result.planned = groups.size() * sizes.size();
    Bench bench(spec, result, observer, everyone);
    system::System& sys = bench.sys();
    if (sys.model().name() != "grim")
        throw ExperimentError("multicast: GRIM's NI multicast (seed 004 §8.1) runs on a grim system, not '" + sys.model().name() +
                              "' (try --preset grim-lanai4-p4)");

    const uint32_t nodes = spec.nodes;
    std::vector<uint32_t> tree(nodes + 1);
    uint32_t ready = 0;
    bool stop = false;
    bench.run_nodes([&](host::ProcessContext& ctx, uint32_t n) {
        grim::Endpoint& ep = grim::endpoint(sys, n);
        grim::Multicast& mc = grim::multicast(sys, n);
        uint32_t replies = 0, pending = 0;
        std::vector<uint32_t> reply_to;
        const uint32_t data = ep.register_handler("bench.mc.data", [&](host::ProcessContext&, const grim::ActiveMessage& m) {
            if (n) reply_to.push_back(m.src_node);
        });
        const uint32_t reply = ep.register_handler("bench.mc.reply", [&](host::ProcessContext&, const grim::ActiveMessage&) { ++replies; });
        ep.register_handler("bench.mc.stop", [&](host::ProcessContext&, const grim::ActiveMessage&) { stop = true; });
        for (uint64_t g : groups) {
            tree[g] = mc.find_tree("bench.mc." + std::to_string(g));
            if (n < g) mc.subscribe(ctx, tree[g], 1u << grim::Endpoint::kLc);
        }
        ++ready;
        if (n) {
            // A receiver: answer every message with a null unicast reply.
            for (;;) {
                ep.wait(ctx, [&] { return !reply_to.empty() || stop; });
                if (reply_to.empty()) return;
                std::vector<uint32_t> to;
                to.swap(reply_to);
                for (uint32_t dst : to) ep.am_send(ctx, dst, reply, {}, kSrc, 0);
            }
        }
        while (ready < nodes) ctx.sleep_for(Time::us(10));
        const uint32_t stop_id = ep.resolve("bench.mc.stop");
        (void)pending;
        for (uint64_t g : groups)
            for (uint64_t s : sizes) {
                if (bench.stopping()) break;
                sys.host_memory(0).fill(kSrc, uint8_t(s), s);
                double sum[2][2] = {};  // [native, unicast][rtt, inject]
                for (int unicast = 0; unicast < 2; ++unicast)
                    for (uint32_t r = 0; r < repeats; ++r) {
                        replies = 0;
                        const Time t0 = ctx.now();
                        if (unicast)
                            for (uint32_t dst = 1; dst < g; ++dst) ep.am_send(ctx, dst, data, {r, 0, 0, 0}, kSrc, uint32_t(s));
                        else
                            mc.send_mc(ctx, tree[g], data, {r, 0, 0, 0}, kSrc, uint32_t(s));
                        const Time t1 = ctx.now();
                        ep.wait(ctx, [&] { return replies == g - 1; });
                        sum[unicast][0] += (ctx.now() - t0).as_us();
                        sum[unicast][1] += (t1 - t0).as_us();
                    }
                bench.publish(ctx, {double(g), double(s), sum[0][0] / repeats, sum[0][1] / repeats, sum[1][0] / repeats,
                                    sum[1][1] / repeats});
            }
        for (uint32_t dst = 1; dst < nodes; ++dst) ep.am_send(ctx, dst, stop_id, {}, kSrc, 0);
    });
    return result;
}

}  // namespace niclab::exp
