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

// The spans of polling that found nothing (Activity::HostPolling) per node, by start
// (a process's polls do not overlap): the host's own work inside one — the poll's PIO
// read and library code — was waiting too. Neither the NIC's work beside it nor a
// posted write the read had to push out first (bus: PIO "write") was.
class Polls {
public:
    explicit Polls(const sim::ActivityLog& log) : log_(log) {
        for (const auto& s : log.spans())
            if (s.kind == Activity::HostPolling) by_node_[s.node].push_back({s.start, s.end});
        for (auto& [node, v] : by_node_) std::sort(v.begin(), v.end());
    }
    bool inside(const ActivitySpan& s) const {
        if (s.kind != Activity::HostLibrary && !(s.kind == Activity::BusPio && log_.name(s.detail) == "read")) return false;
        const auto it = by_node_.find(s.node);
        if (it == by_node_.end()) return false;
        const auto& v = it->second;
        auto p = std::upper_bound(v.begin(), v.end(), std::pair{s.start, Time::max()});
        return p != v.begin() && s.end <= std::prev(p)->second;
    }

private:
    const sim::ActivityLog& log_;
    std::map<uint32_t, std::vector<std::pair<Time, Time>>> by_node_;
};

// The span on `node` that ended last at or before `t`: a local part busy before t, or a
// packet delivered to the node by t. Its end (clipped to t) in `ends`. Polling that
// found nothing is never one: its time is waiting.
const ActivitySpan* predecessor(const sim::ActivityLog& log, const Polls& polls, uint32_t node, Time start, Time t,
                                 Time& ends) {
    const ActivitySpan* best = nullptr;
    for (const auto& s : log.spans()) {
        if (s.node != node || s.end <= start || s.kind == Activity::HostPolling) continue;
        Time e;
        if (s.kind == Activity::Network) {
            if (s.end > t) continue;
            e = s.end;
        } else {
            if (s.start >= t) continue;
            e = std::min(s.end, t);
        }
        if ((!best || e > ends || (e == ends && s.kind < best->kind)) && !polls.inside(s)) {
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
    const Polls polls(log);
    while (t > start) {
        Time ends{};
        const ActivitySpan* s = predecessor(log, polls, node, start, t, ends);
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
