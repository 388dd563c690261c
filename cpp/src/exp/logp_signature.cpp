// The LogP signature of Culler, Liu, Martin and Yoshikawa (IEEE Micro 1996) as seed 002
// §6.1 uses it: P_s (the client) sends m messages of `size` bytes to P_r (the server),
// with a delay d between consecutive ones; P_r answers each with a reply; T_total is
// the time P_s needs to issue the m messages. T_total/m against m, one curve per d.
//
// As implemented:
//  - put: a message is a PtlPut of `size` bytes; the server's program waits for each
//    and answers it with a put of the same size. get: a message is a non-blocking
//    PtlGet of `size` bytes; the reply is the answer (the server's NAL sends it).
//  - P_s: for i = 1..m: if i > 1 { compute(d); poll }; send. T_total runs from the
//    first send's call to the return of the m-th. The delay is host computation, so
//    interrupts arriving meanwhile push it back (that is how o_r shows up); the poll
//    takes every event already in the queue (PtlEQGet until it is empty) without
//    waiting. The put blocks by itself when the driver's TX pendings are all in use:
//    that is the finite buffering that makes P_s take replies before it can go on.
//  - After T_total is taken, P_s waits (untimed) for the m replies and its send
//    completions, so every m starts from an empty pipeline.
//  - Before the signature, the round trip of one message of the same size (send, wait
//    for the reply), the mean of `rtt_repeats` after one warm-up, is measured for L.
// o_s, o_r, g and L come from extract_logp (fits.hpp): o_s is T/m at the smallest m
// with d = 0, g the marginal time per message with d = 0, o_r the marginal time with
// the largest d minus o_s + d, L = rtt/2 - o_s - o_r. On a generic-mode Portals host o_r
// counts everything P_s's CPU spends per message beyond the send call: the interrupt of
// the reply, but also the interrupt of the send's completion and taking both events.
// In a round trip the send-completion interrupt overlaps the flight of the message, so
// it is not in rtt/2 and L comes out too small by about one interrupt (it can be
// negative): the method assumes the send costs nothing after the send call returns.
#include <algorithm>

#include "niclab/exp/fits.hpp"
#include "niclab/exp/programs.hpp"

namespace niclab::exp {

namespace {

// Long enough for the d = 0 curve to settle (it steps as the driver's interrupts batch
// events): its steady state is fitted over the last half of the points, m = 32..256.
std::vector<uint64_t> default_ms() { return {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 160, 192, 224, 256}; }

}  // namespace

Result run_logp_signature(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer) {
    Options o("logp_signature", options);
    const uint64_t size = o.unsigned_int("size", 8);
    std::vector<uint64_t> ms = o.unsigned_list("m");
    if (ms.empty()) ms = default_ms();
    const std::vector<double> delays = o.number_list("delays_us", {0, 5, 10, 20});
    const unsigned rtt_repeats = unsigned(o.unsigned_int("rtt_repeats", 5));
    const Pair pair = Pair::from(o);
    o.reject_unknown();
    for (uint64_t m : ms)
        if (m == 0 || m > 256) throw ExperimentError("logp_signature: option 'm' holds " + std::to_string(m) + "; each m must be 1..256");
    for (double d : delays)
        if (!(d >= 0) || d > 1e6) throw ExperimentError("logp_signature: option 'delays_us' holds " + std::to_string(d) + "; delays must be 0..1e6 us");
    if (rtt_repeats == 0) throw ExperimentError("logp_signature: option 'rtt_repeats' must be at least 1");

    Result result("logp_signature", {{"d_us", "us"}, {"m", ""}, {"t_total_us", "us"}, {"t_per_msg_us", "us"}});
    result.params = o.used();
    result.planned = ms.size() * delays.size();
    Bench bench(spec, result, observer, pair);
    bench.offer_breakdown();
    bench.check_size("size", size);
    const bool get = bench.get();
    const uint64_t max = std::max<uint64_t>(size, 1);
    double rtt_us = 0;

    bench.run(
        [&](host::ProcessContext& ctx, msg::Transport& me) {
            me.open(ctx, max);
            bench.meet(ctx, me);
            if (get) me.prepare_get(ctx, size);
            else me.prepare_send(ctx, size);
            uint64_t sent = 0;  // messages sent, so replies expected
            auto send = [&] {
                ++sent;
                if (get) me.start_get(ctx);
                else me.send(ctx);
            };
            auto drain = [&] {
                if (get) {
                    me.wait_replies(ctx, sent);
                } else {
                    while (me.received() < sent) me.recv(ctx);
                    me.wait_sends(ctx);
                }
            };

            // The round trip of one message; a breakdown takes the last one (recorded
            // from the one before, settled after the first signature point).
            send();
            drain();
            const Time t0 = ctx.now();
            const unsigned first_recorded = rtt_repeats >= 2 ? rtt_repeats - 2 : 0;
            for (unsigned i = 0; i < rtt_repeats; ++i) {
                if (i == first_recorded) bench.watch_begin();
                const Time t = ctx.now();
                send();
                drain();
                if (i + 1 == rtt_repeats)
                    bench.watch_end(size, t, ctx.now(), get ? "the round trip of one get (for L)" : "the round trip of one put and its reply (for L)");
            }
            rtt_us = (ctx.now() - t0).as_us() / rtt_repeats;

            for (double d_us : delays) {
                const Time d = Time::ps(int64_t(d_us * 1e6 + 0.5));
                for (uint64_t m : ms) {
                    if (bench.stopping()) return;
                    const Time start = ctx.now();
                    for (uint64_t i = 0; i < m; ++i) {
                        if (i > 0) {
                            ctx.compute(d);
                            me.poll(ctx);
                        }
                        send();
                    }
                    const double t_total = (ctx.now() - start).as_us();
                    drain();
                    // Let both hosts and NICs come to rest (the last interrupts, the
                    // server's send completions), so every m starts from the same state.
                    ctx.sleep_for(Time::us(50));
                    bench.watch_settle();
                    bench.publish(ctx, {d_us, double(m), t_total, t_total / double(m)});
                }
            }
        },
        [&](host::ProcessContext& ctx, msg::Transport& me) {
            me.open(ctx, max);
            bench.meet(ctx, me);
            if (get) return;  // the NAL answers gets
            me.prepare_send(ctx, size);
            for (;;) {
                me.recv(ctx);
                me.send(ctx);
            }
        });

    // The fit: one curve per delay, in the order measured.
    nlohmann::json fit = {{"rtt_us", rtt_us}};
    try {
        std::vector<SignatureCurve> curves;
        for (size_t i = 0; i < result.rows(); ++i) {
            const auto& row = result.row(i);
            if (curves.empty() || curves.back().d_us != row[0]) curves.push_back({row[0], {}, {}});
            curves.back().m.push_back(row[1]);
            curves.back().t_per_msg_us.push_back(row[3]);
        }
        const LogPParams p = extract_logp(curves, rtt_us);
        fit.update({{"o_s_us", p.o_s_us}, {"o_r_us", p.o_r_us}, {"g_us", p.g_us}, {"L_us", p.L_us},
                    {"gap_is_overhead_bound", p.gap_is_overhead_bound}});
    } catch (const FitError& e) {
        fit["error"] = e.what();
    }
    result.fit = fit;
    return result;
}

}  // namespace niclab::exp
