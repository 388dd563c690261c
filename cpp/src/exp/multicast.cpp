// The multicast benchmark (seed 004 §8.1.7, L2091-2099; Figs 8.7-8.8): node 0 sends a
// message of S bytes to a group of G hosts, each receiver answers at once with a null
// unicast message; node 0 measures its injection time (the library calls that put the
// message, or its copies, into the NI) and the round trip until every reply is in. Two
// methods each point: the native multicast (one injection; GRIM's NIs replicate it
// along the binary tree, §8.1.4) and G-1 unicast copies injected by node 0 (L2093).
// A message larger than the library's largest single message is cut into fragments
// and reassembled at each receiver by the library (§8.2.1, §8.2.3); it counts as
// arrived when whole.
//
// assumption: a group of G hosts is nodes 0..G-1, all joined, so the tree has G NIs
// (Fig. 8.8's depths: 2-3 and 4-7 hosts converge, L2099) and the sender's NI is its root
// (the thesis does not say which host is root); the sender's own copy is delivered to
// it and not answered; G-1 receivers reply. One group per group size, joined before the
// timed run.
//
// Runs on any system whose model offers native multicast (system/group_model.hpp:
// GRIM's); others get an ExperimentError naming the ones that have it.
#include <algorithm>

#include "niclab/exp/programs.hpp"
#include "niclab/system/group_model.hpp"

namespace niclab::exp {

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
    const system::GroupModel* model = system::group_model(sys.model());
    if (!model) {
        std::string have;
        for (const auto& name : system::systems_with_group_messaging()) have += (have.empty() ? "" : ", ") + name;
        throw ExperimentError("multicast: system '" + sys.model().name() + "' has no native multicast (systems that have: " + have +
                              "; e.g. GRIM's NI multicast, seed 004 §8.1: try --preset grim-lanai4-p4)");
    }

    const uint32_t nodes = spec.nodes;
    std::vector<std::unique_ptr<msg::GroupMessaging>> mcs(nodes);
    for (uint32_t n = 0; n < nodes; ++n) mcs[n] = model->open_group_messaging(sys, n);
    for (uint64_t s : sizes)
        if (s > mcs[0]->max_message())
            throw ExperimentError("multicast: option 'sizes': " + std::to_string(s) + " B is more than the " +
                                  std::to_string(mcs[0]->max_message()) + " B one multicast may carry on '" + sys.model().name() + "'");
    std::vector<uint32_t> group(nodes + 1);
    uint32_t ready = 0;
    bool stop = false;
    bench.run_nodes([&](host::ProcessContext& ctx, uint32_t n) {
        msg::GroupMessaging& mc = *mcs[n];
        uint32_t replies = 0;
        std::vector<uint32_t> reply_to;
        mc.set_handlers({[&](uint32_t src) {
                             if (n) reply_to.push_back(src);
                         },
                         [&](uint32_t) { ++replies; }, [&](uint32_t) { stop = true; }});
        for (uint64_t g : groups) group[g] = mc.group(ctx, "bench.mc." + std::to_string(g), n < g);
        ++ready;
        if (n) {
            // A receiver: answer every message with a null unicast reply.
            for (;;) {
                mc.wait(ctx, [&] { return !reply_to.empty() || stop; });
                if (reply_to.empty()) return;
                std::vector<uint32_t> to;
                to.swap(reply_to);
                for (uint32_t dst : to) mc.reply(ctx, dst);
            }
        }
        while (ready < nodes) ctx.sleep_for(Time::us(10));
        for (uint64_t g : groups)
            for (uint64_t s : sizes) {
                if (bench.stopping()) break;
                mc.prepare_send(s);
                double sum[2][2] = {};  // [native, unicast][rtt, inject]
                for (int unicast = 0; unicast < 2; ++unicast)
                    for (uint32_t r = 0; r < repeats; ++r) {
                        replies = 0;
                        const Time t0 = ctx.now();
                        if (unicast)
                            for (uint32_t dst = 1; dst < g; ++dst) mc.send_to(ctx, dst, r);
                        else
                            mc.send_group(ctx, group[g], r);
                        const Time t1 = ctx.now();
                        mc.wait(ctx, [&] { return replies == g - 1; });
                        sum[unicast][0] += (ctx.now() - t0).as_us();
                        sum[unicast][1] += (t1 - t0).as_us();
                    }
                bench.publish(ctx, {double(g), double(s), sum[0][0] / repeats, sum[0][1] / repeats, sum[1][0] / repeats,
                                    sum[1][1] / repeats});
            }
        for (uint32_t dst = 1; dst < nodes; ++dst) mc.stop(ctx, dst);
    });
    return result;
}

}  // namespace niclab::exp
