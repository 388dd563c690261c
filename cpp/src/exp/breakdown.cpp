#include "niclab/exp/breakdown.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace niclab::exp {

namespace {

using sim::Activity;
using sim::ActivitySpan;
using Key = std::tuple<int, uint32_t, uint32_t>;  // activity, node, detail: the map's order is the report's

Key key_of(const ActivitySpan& s) { return {int(s.kind), s.node, s.detail}; }

// How long each owner was busy within [start, end] (overlaps counted once per owner).
std::map<Key, Time> busy_times(const sim::ActivityLog& log, Time start, Time end) {
    struct Edge {
        Time at;
        int delta;
        Key key;
    };
    std::vector<Edge> edges;
    for (const auto& s : log.spans()) {
        const Time a = std::max(s.start, start), z = std::min(s.end, end);
        if (z <= a) continue;
        edges.push_back({a, +1, key_of(s)});
        edges.push_back({z, -1, key_of(s)});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.at < y.at; });
    std::map<Key, int> open;
    std::map<Key, Time> busy;
    Time t = start;
    for (const Edge& e : edges) {
        for (const auto& [key, n] : open) busy[key] += e.at - t;
        t = e.at;
        if ((open[e.key] += e.delta) == 0) open.erase(e.key);
    }
    return busy;
}

// The span on `node` that ended last at or before `t`: a local part busy before t, or a
// packet delivered to the node by t. Its end (clipped to t) in `ends`.
const ActivitySpan* predecessor(const sim::ActivityLog& log, uint32_t node, Time start, Time t, Time& ends) {
    const ActivitySpan* best = nullptr;
    for (const auto& s : log.spans()) {
        if (s.node != node || s.end <= start) continue;
        Time e;
        if (s.kind == Activity::Network) {
            if (s.end > t) continue;
            e = s.end;
        } else {
            if (s.start >= t) continue;
            e = std::min(s.end, t);
        }
        if (!best || e > ends || (e == ends && s.kind < best->kind)) {
            best = &s;
            ends = e;
        }
    }
    return best;
}

}  // namespace

Breakdown break_down(const sim::ActivityLog& log, Time start, Time end, uint32_t last) {
    std::map<Key, Time> given;
    Time waiting{};
    Time t = end;
    uint32_t node = last;
    while (t > start) {
        Time ends{};
        const ActivitySpan* s = predecessor(log, node, start, t, ends);
        if (!s) {
            waiting += t - start;
            break;
        }
        waiting += t - ends;
        const Time from = std::max(s->start, start);
        given[key_of(*s)] += ends - from;
        if (s->kind == Activity::Network) node = s->peer;
        t = from;
    }

    Breakdown b{start, end, {}};
    for (const auto& [key, busy] : busy_times(log, start, end)) {
        const auto [kind, n, detail] = key;
        const auto it = given.find(key);
        b.parts.push_back({sim::activity_name(Activity(kind)), log.name(detail), int64_t(n),
                           it == given.end() ? Time{} : it->second, busy});
    }
    if (waiting > Time{}) b.parts.push_back({"waiting", "", -1, waiting, waiting});
    return b;
}

nlohmann::json Breakdown::to_json() const {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : parts)
        list.push_back({{"part", p.part}, {"detail", p.detail}, {"node", p.node}, {"time_ps", p.time.ps()},
                        {"busy_ps", p.busy.ps()}});
    return {{"start_ps", start.ps()}, {"end_ps", end.ps()}, {"parts", std::move(list)}};
}

}  // namespace niclab::exp
