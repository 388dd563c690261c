// LogGP by parametrized round trips (Kielmann, Bal, Verstoep 2000), as Netgauge's
// "loggp" pattern measures it. PRTT(n,d,s): the client sends n messages of s bytes,
// computing d before each one after the first, and the server answers the n-th with
// one message of s bytes; PRTT is the client's time from its first send call until it
// has the answer. Per size s, with `repeats` rounds of each (means):
//   PRTT(1,0,s); then d = that mean; PRTT(n,0,s); PRTT(n,d,s); and o_r(s) as the
//   receiver measures it: in a round of n messages sent back to back, the receiver,
//   having received the first, computes d before each receive of messages 2..n (they
//   have arrived by then: d exceeds the gap), so o_r = (elapsed - (n-1) d) / (n-1),
//   elapsed from the first receive's return to the n-th's.
// The delays are host computation: interrupts arriving meanwhile push them back.
//
// op = put: the messages are puts; the server's program receives them and answers with
//   a put. The client tells the server each round's n, d and mode in hdr_data, the
//   same on every message of the round (bits 0-15: n; bits 16-55: d in ns; bit 63:
//   the o_r round), and the server returns its o_r (ps) in the answer's hdr_data.
// op = get: the messages are non-blocking gets; the server's NAL answers each, so
//   there is no server program. PRTT(n,d,s) is then the time to issue the n gets (d
//   before each after the first) and receive all n replies, and o_r is measured by the
//   client on the replies: it issues n gets back to back, takes the first reply, then
//   computes d before waiting for each of replies 2..n.
// fit_loggp (fits.hpp) turns the points into L, o_s, o_r, g, G.
#include <algorithm>

#include "niclab/exp/fits.hpp"
#include "niclab/exp/programs.hpp"
#include "niclab/exp/schedule.hpp"

namespace niclab::exp {

namespace {

constexpr uint64_t kOrRound = uint64_t{1} << 63;
constexpr uint64_t kMaxDelayNs = (uint64_t{1} << 40) - 1;

uint64_t encode(uint64_t n, Time d, bool o_r_round) {
    const uint64_t d_ns = uint64_t(d.ps() / 1000);
    return n | (d_ns << 16) | (o_r_round ? kOrRound : 0);
}
uint64_t decode_n(uint64_t h) { return h & 0xFFFF; }
Time decode_d(uint64_t h) { return Time::ns(int64_t((h >> 16) & kMaxDelayNs)); }
bool decode_o_r(uint64_t h) { return (h & kOrRound) != 0; }

// The receiver's o_r from a round: first receive done at `first`, last at `last`.
Time receive_overhead(Time first, Time last, uint64_t n, Time d) {
    const int64_t k = int64_t(n - 1);
    return Time::ps(((last - first).ps() - k * d.ps()) / k);
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / double(v.size());
}

}  // namespace

Result run_prtt(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer) {
    Options o("prtt", options);
    const uint64_t n = o.unsigned_int("n", 10);
    std::vector<uint64_t> sizes = o.unsigned_list("sizes");
    if (sizes.empty()) sizes = osu_sizes(64 * 1024, false);
    const unsigned repeats = unsigned(o.unsigned_int("repeats", 3));
    const Pair pair = Pair::from(o);
    o.reject_unknown();
    if (n < 2 || n > 1000) throw ExperimentError("prtt: option 'n' must be 2..1000 (got " + std::to_string(n) + ")");
    if (repeats == 0 || repeats > 1000) throw ExperimentError("prtt: option 'repeats' must be 1..1000");
    const uint64_t max = std::max<uint64_t>(1, *std::max_element(sizes.begin(), sizes.end()));

    Result result("prtt", {{"size", "B"},
                           {"prtt_1_0_us", "us"},
                           {"prtt_n_0_us", "us"},
                           {"prtt_n_d_us", "us"},
                           {"d_us", "us"},
                           {"o_r_us", "us"}});
    result.params = o.used();
    result.planned = sizes.size();
    Bench bench(spec, result, observer, pair);
    bench.offer_breakdown();
    bench.check_size("sizes", max);
    const bool get = bench.get();

    bench.run(
        [&](host::ProcessContext& ctx, msg::Transport& me) {
            me.open(ctx, max);
            bench.meet(ctx, me);
            uint64_t sent = 0;
            // One round of k messages with delay d: its PRTT, and the answer's hdr_data.
            auto round = [&](uint64_t k, Time d, bool o_r_round) -> std::pair<Time, uint64_t> {
                const uint64_t hdr = encode(k, d, o_r_round);
                const Time start = ctx.now();
                if (get) {
                    const uint64_t base = sent;
                    for (uint64_t i = 0; i < k; ++i) {
                        if (i > 0 && !o_r_round) ctx.compute(d);
                        ++sent;
                        me.start_get(ctx);
                    }
                    if (!o_r_round) {
                        me.wait_replies(ctx, sent);
                        return {ctx.now() - start, 0};
                    }
                    me.wait_replies(ctx, base + 1);
                    const Time first = ctx.now();
                    for (uint64_t i = 2; i <= k; ++i) {
                        ctx.compute(d);
                        me.wait_replies(ctx, base + i);
                    }
                    return {ctx.now() - start, uint64_t(receive_overhead(first, ctx.now(), k, d).ps())};
                }
                for (uint64_t i = 0; i < k; ++i) {
                    if (i > 0 && !o_r_round) ctx.compute(d);
                    me.send(ctx, hdr);
                }
                const auto answer = me.recv(ctx);
                return {ctx.now() - start, answer.tag};
            };
            auto us_of = [](Time t) { return t.as_us(); };

            for (uint64_t s : sizes) {
                if (bench.stopping()) break;
                if (get) me.prepare_get(ctx, s);
                else me.prepare_send(ctx, s);
                // A breakdown takes the last PRTT(1,0,s), one message and its answer
                // (recorded from the warm-up on, settled after the next round).
                bench.watch_begin();
                round(1, Time{}, false);  // warm-up (the server binds its answer for s)
                std::vector<double> p10, pn0, pnd, o_r;
                for (unsigned r = 0; r < repeats; ++r) {
                    const Time prtt = round(1, Time{}, false).first;
                    p10.push_back(us_of(prtt));
                    if (r + 1 == repeats)
                        bench.watch_end(s, ctx.now() - prtt, ctx.now(),
                                        get ? "PRTT(1,0,s): one get and its reply" : "PRTT(1,0,s): one put and its answer");
                }
                const Time d = Time::ns(std::min<int64_t>(int64_t(kMaxDelayNs), int64_t(mean(p10) * 1000 + 0.5)));
                for (unsigned r = 0; r < repeats; ++r) {
                    pn0.push_back(us_of(round(n, Time{}, false).first));
                    if (r == 0) bench.watch_settle();
                }
                for (unsigned r = 0; r < repeats; ++r) pnd.push_back(us_of(round(n, d, false).first));
                for (unsigned r = 0; r < repeats; ++r) o_r.push_back(Time::ps(int64_t(round(n, d, true).second)).as_us());
                bench.publish(ctx, {double(s), mean(p10), mean(pn0), mean(pnd), d.as_us(), mean(o_r)});
            }
        },
        [&](host::ProcessContext& ctx, msg::Transport& me) {
            me.open(ctx, max);
            bench.meet(ctx, me);
            if (get) return;  // the NAL answers gets
            uint64_t prepared = ~uint64_t{0};
            for (;;) {
                const auto first = me.recv(ctx);
                const uint64_t k = decode_n(first.tag);
                const Time d = decode_d(first.tag);
                uint64_t answer = 0;
                if (decode_o_r(first.tag) && k > 1) {
                    const Time t_first = ctx.now();
                    for (uint64_t i = 2; i <= k; ++i) {
                        ctx.compute(d);
                        me.recv(ctx);
                    }
                    answer = uint64_t(receive_overhead(t_first, ctx.now(), k, d).ps());
                } else {
                    for (uint64_t i = 2; i <= k; ++i) me.recv(ctx);
                }
                if (first.bytes != prepared) me.prepare_send(ctx, prepared = first.bytes);
                me.send(ctx, answer);
            }
        });

    nlohmann::json fit = nlohmann::json::object();
    try {
        std::vector<PrttPoint> points;
        for (size_t i = 0; i < result.rows(); ++i) {
            const auto& r = result.row(i);
            points.push_back({r[0], r[1], r[2], r[3], r[4], r[5]});
        }
        const LogGPParams p = fit_loggp(points, int(n));
        fit = {{"L_us", p.L_us},
               {"o_s_us", p.o_s_us},
               {"o_r_us", p.o_r_us},
               {"g_us", p.g_us},
               {"G_us_per_byte", p.G_us_per_byte},
               {"lsq_us", p.lsq_us},
               {"L_netgauge_us", p.L_netgauge_us},
               {"gap_r2", p.gap_fit.r2},
               {"o_s_by_size_us", p.o_s_by_size_us},
               {"o_r_by_size_us", p.o_r_by_size_us}};
    } catch (const FitError& e) {
        fit["error"] = e.what();
    }
    result.fit = fit;
    return result;
}

}  // namespace niclab::exp
