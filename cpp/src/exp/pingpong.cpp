// Ping-pong, streaming and bi-directional sweeps: the three tests of the NetPIPE
// Portals module (seed 001 §5.2), each for put or get.
#include <algorithm>
#include <array>
#include <exception>
#include <functional>
#include <vector>

#include "niclab/exp/programs.hpp"
#include "niclab/exp/sweep.hpp"

namespace niclab::exp {

namespace {

constexpr uint64_t kDefaultMax = 8ull << 20;  // seed 001 reports up to 8 MB

std::vector<Column> sweep_columns() {
    return {{"size", "B"}, {"repeats", ""}, {"time_us", "us"}, {"latency_us", "us"}, {"bandwidth_mb_s", "MB/s"}};
}

// Round-trip sweeps time every transfer of a point on its own, so a point also says how
// its repeats spread (the first after a cold path, a periodic firmware task, a
// congested network): the least, the median and the most one-way latency.
std::vector<Column> round_trip_columns() {
    auto c = sweep_columns();
    c.insert(c.end(), {{"latency_min_us", "us"}, {"latency_median_us", "us"}, {"latency_max_us", "us"}});
    return c;
}

// {min, median, max} of `v` (reordered); the median of an even count is the mean of the two middle ones.
std::array<double, 3> spread(std::vector<double>& v) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    const double least = *lo, most = *hi;
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + mid, v.end());
    double median = v[mid];
    if (v.size() % 2 == 0) median = (median + *std::max_element(v.begin(), v.begin() + mid)) / 2;
    return {least, median, most};
}

struct Sweep {
    Pair pair;
    SweepPlan plan;
};

Sweep read_sweep(Options& o, unsigned min_repeats, unsigned max_repeats, const std::function<void(Options&)>& more = {}) {
    Sweep s;
    s.pair = Pair::from(o);
    s.plan = SweepPlan::from(o, kDefaultMax, min_repeats, max_repeats);
    if (more) more(o);
    o.reject_unknown();
    return s;
}

// Runs `leave` when a program's body ends, by return or by exception.
struct Leave {
    const std::function<void(bool, bool)>& leave;
    bool client;
    int exceptions = std::uncaught_exceptions();
    ~Leave() {
        if (leave) leave(client, std::uncaught_exceptions() > exceptions);
    }
};

uint64_t largest(const SweepPlan& plan) { return std::max<uint64_t>(1, *std::max_element(plan.sizes.begin(), plan.sizes.end())); }

double us(Time t) { return t.as_us(); }

// `reps` timed transfers of n bytes after the plan's untimed warm-up ones: the
// simulated time per transfer (us), and each transfer's own time in `each`. A transfer
// is a get, or a put answered by the peer's put (or, in bidir, the peer's own put of the
// same exchange). `begin` runs when the timed part starts. With `watch` (the client's
// bench, when a breakdown is asked for) the last timed transfer, `what`, is broken down.
double time_transfers(host::ProcessContext& ctx, msg::Transport& me, const SweepPlan& plan, uint64_t n, bool get,
                      const std::function<void()>& begin, std::vector<double>& each, Bench* watch,
                      const char* what) {
    auto transfer = [&] {
        if (get) return me.get(ctx, n);
        me.send(ctx);
        me.recv(ctx);
    };
    if (!get) me.prepare_send(ctx, n);
    unsigned done = 0;  // transfers so far: the previous point's breakdown settles after the first
    auto counted = [&] {
        transfer();
        if (watch && ++done == 1) watch->watch_settle();
    };
    for (unsigned i = 0; i < plan.warmup; ++i) counted();
    if (begin) begin();
    const unsigned reps = plan.repeats(n);
    each.clear();
    const Time start = ctx.now();
    const unsigned first_recorded = reps >= 2 ? reps - 2 : 0;  // the one before the measured one
    for (unsigned i = 0; i < reps; ++i) {
        if (watch && i == first_recorded) watch->watch_begin();
        const Time t = ctx.now();
        counted();
        each.push_back(us(ctx.now() - t));
        if (watch && i + 1 == reps) watch->watch_end(n, t, ctx.now(), what);
    }
    return us(ctx.now() - start) / reps;
}

// Serves the client's puts: answers each with a put of the same size (ping-pong), or
// acknowledges the last of a stream (hdr_data counts down to 1) with an empty put.
// `work`: host time the server spends on each message before it takes the next (a slow
// consumer, whose library's buffers fill: the system's flow control then shows).
void echo_server(host::ProcessContext& ctx, msg::Transport& me, Bench& bench, uint64_t max, bool stream,
                 Time work = Time{}) {
    me.open(ctx, max);
    bench.meet(ctx, me);
    uint64_t prepared = ~uint64_t{0};
    for (;;) {
        const auto ev = me.recv(ctx);
        if (work > Time{}) ctx.compute(work);
        if (stream && ev.tag != 1) continue;
        const uint64_t reply = stream ? 0 : ev.bytes;
        if (reply != prepared) me.prepare_send(ctx, prepared = reply);
        me.send(ctx);
    }
}

// Gets need nothing from the server's program but, where its library runs only when
// entered, to keep entering it (Transport::serve_gets).
void get_server(host::ProcessContext& ctx, msg::Transport& me, Bench& bench, uint64_t max) {
    me.open(ctx, max);
    bench.meet(ctx, me);
    me.serve_gets(ctx);
}

}  // namespace

Result run_pingpong(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer) {
    return run_sweep(SweepKind::pingpong, "pingpong", spec, options, observer);
}

Result run_stream(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer) {
    Options o("stream", options);
    double work_us = 0.0;
    const Sweep s = read_sweep(o, 8, 64, [&](Options& own) { work_us = own.number("server_work_us", 0.0); });
    if (!(work_us >= 0.0 && work_us <= 1e6))
        throw ExperimentError("stream option 'server_work_us': " + std::to_string(work_us) +
                              " is not a time from 0 to 1e6 us (the server's work per message)");
    const Time work = Time::ps(int64_t(work_us * 1e6));
    Result result("stream", sweep_columns());
    result.params = o.used();
    result.planned = s.plan.sizes.size();
    Bench bench(spec, result, observer, s.pair);
    bench.offer_breakdown();
    const uint64_t max = largest(s.plan);
    bench.check_size("sizes", max);
    const bool get = bench.get();
    if (get && work > Time{})
        throw ExperimentError("stream option 'server_work_us': a burst of gets gives the server no messages to work on");
    bench.run(
        [&](host::ProcessContext& ctx, msg::Transport& me) {
            me.open(ctx, max);
            bench.meet(ctx, me);
            // A burst of `count` messages; the time is the client's, up to the acknowledgement
            // of the last one (gets are blocking in this test, as in seed 001 §6).
            auto burst = [&](uint64_t n, unsigned count) {
                for (unsigned k = 0; k < count; ++k) {
                    if (get) me.get(ctx, n);
                    else me.send(ctx, count - k);
                }
                if (!get) me.recv(ctx);
            };
            for (uint64_t n : s.plan.sizes) {
                if (bench.stopping()) break;
                const unsigned reps = s.plan.repeats(n);
                if (!get) me.prepare_send(ctx, n);
                if (s.plan.warmup) burst(n, s.plan.warmup);
                // A breakdown takes the whole timed burst (the previous point's settles
                // here, after this point's warm-up has let its tail end).
                bench.watch_begin();
                const Time start = ctx.now();
                burst(n, reps);
                bench.watch_end(n, start, ctx.now(), get ? "a burst of blocking gets" : "a burst of puts up to the acknowledgement of the last", reps);
                const double per_message = us(ctx.now() - start) / reps;
                bench.publish(ctx, {double(n), double(reps), per_message, per_message, n / per_message});
            }
        },
        [&](host::ProcessContext& ctx, msg::Transport& me) {
            if (get) get_server(ctx, me, bench, max);
            else echo_server(ctx, me, bench, max, true, work);
        });
    return result;
}

Result run_bidir(const system::SystemSpec& spec, const nlohmann::json& options, const Observe& observer) {
    return run_sweep(SweepKind::bidir, "bidir", spec, options, observer);
}

Result run_sweep(SweepKind kind, const std::string& name, const system::SystemSpec& spec, const nlohmann::json& options,
                 const Observe& observer, const SweepHooks& hooks) {
    Options o(name, options);
    const Sweep s = read_sweep(o, hooks.min_repeats, hooks.max_repeats, hooks.options);
    auto columns = round_trip_columns();
    columns.insert(columns.end(), hooks.columns.begin(), hooks.columns.end());
    Result result(name, columns);
    result.params = o.used();
    result.planned = s.plan.sizes.size();
    Bench bench(spec, result, observer, s.pair);
    bench.offer_breakdown();
    Bench* watch = bench.breakdown() ? &bench : nullptr;
    const uint64_t max = largest(s.plan);
    bench.check_size("sizes", max);  // before any hook starts work on the system
    struct Release {
        const std::function<void()>& release;
        ~Release() {
            if (release) release();
        }
    } const release{hooks.release};  // before the bench (and its system) is destroyed
    if (hooks.prepare) hooks.prepare(bench);
    const bool get = bench.get();
    auto extra = [&](host::ProcessContext& ctx, double latency) {
        return hooks.end ? hooks.end(ctx, latency) : std::vector<double>{};
    };
    auto begin = [&](host::ProcessContext& ctx) -> std::function<void()> {
        if (!hooks.begin) return nullptr;
        return [&hooks, &ctx] { hooks.begin(ctx); };
    };
    // Per side, each transfer's time (us), reused from point to point.
    auto transfer_times = [&] {
        std::vector<double> each;
        each.reserve(s.plan.max_repeats);
        return each;
    };
    // A point's row: size, repeats, time per transfer, one-way latency (half of it for a
    // get, a put's round trip or an exchange), bandwidth, the latency's spread, the hooks'.
    auto publish = [&](host::ProcessContext& ctx, std::vector<double> row, double latency, std::vector<double>& each) {
        for (double t : spread(each)) row.push_back(t / 2);
        auto more = extra(ctx, latency);
        row.insert(row.end(), more.begin(), more.end());
        bench.publish(ctx, std::move(row));
    };

    if (kind == SweepKind::pingpong) {
        bench.run(
            [&](host::ProcessContext& ctx, msg::Transport& me) {
                const Leave leave{hooks.leave, true};
                if (hooks.enter) hooks.enter(ctx, true);
                me.open(ctx, max);
                bench.meet(ctx, me);
                auto each = transfer_times();
                for (uint64_t n : s.plan.sizes) {
                    if (bench.stopping()) break;
                    // Put: a round trip of two messages. Get: one get, itself a round trip.
                    const double per_transfer =
                        time_transfers(ctx, me, s.plan, n, get, begin(ctx), each, watch, get ? "one get" : "a put and its reply") /
                        (get ? 1 : 2);
                    const double latency = get ? per_transfer / 2 : per_transfer;
                    publish(ctx, {double(n), double(s.plan.repeats(n)), per_transfer, latency, n / per_transfer}, latency, each);
                }
            },
            [&](host::ProcessContext& ctx, msg::Transport& me) {
                const Leave leave{hooks.leave, false};
                if (hooks.enter) hooks.enter(ctx, false);
                if (get) get_server(ctx, me, bench, max);
                else echo_server(ctx, me, bench, max, false);
            });
        return result;
    }

    // Both sides run the same program on the same schedule: send, then wait for the
    // peer's message of the same exchange.
    auto side = [&](host::ProcessContext& ctx, msg::Transport& me) {
        const bool client = me.node() == s.pair.client;
        const Leave leave{hooks.leave, client};
        if (hooks.enter) hooks.enter(ctx, client);
        me.open(ctx, max);
        bench.meet(ctx, me);
        auto each = transfer_times();
        for (uint64_t n : s.plan.sizes) {
            if (client && bench.stopping()) break;
            const double per_exchange =
                time_transfers(ctx, me, s.plan, n, get, client ? begin(ctx) : nullptr, each, client ? watch : nullptr,
                               get ? "one get, both sides getting at once" : "an exchange: a put each way at once");
            if (client)
                publish(ctx, {double(n), double(s.plan.repeats(n)), per_exchange, per_exchange / 2, 2.0 * n / per_exchange},
                        per_exchange / 2, each);
        }
    };
    bench.run(side, side);
    return result;
}

}  // namespace niclab::exp
