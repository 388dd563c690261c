#include "niclab/trace/chrome_json.hpp"

#include <fstream>
#include <map>
#include <string>

namespace niclab::trace {


nlohmann::ordered_json chrome_events(const ChromeTrack& t) {
    using J = nlohmann::ordered_json;
    const int pid = int(t.node);
    J events = J::array();
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 0},
                      {"args", {{"name", "node " + std::to_string(pid)}}}});
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 0}, {"args", {{"name", "firmware"}}}});
    auto us = [&](const DecodedRecord& r) {
        return (t.simulated_time ? r.sim_time_ns.value_or(r.time_ns) : r.time_ns) / 1000.0;
    };
    std::map<int, std::vector<const DecodedRecord*>> open;  // value -> the opens not yet closed
    for (const DecodedRecord& r : *t.records) {
        const double ts = us(r);
        const int value = r.value;
        J args{{"value", value}, {"pc", pc_text(r.pc)}};
        if (!r.file.empty()) args["source"] = r.file + ":" + std::to_string(r.line);
        events.push_back({{"name", format_where(r)}, {"cat", "trace"}, {"ph", "i"}, {"s", "t"}, {"ts", ts}, {"pid", pid},
                          {"tid", 0}, {"args", std::move(args)}});
        if (value >= 1 && value <= 0x7f) {
            open[value].push_back(&r);
        } else if (value > 0x80) {
            auto it = open.find(value & 0x7f);
            if (it == open.end() || it->second.empty()) continue;
            const DecodedRecord& start = *it->second.back();
            it->second.pop_back();
            const double t0 = us(start);
            const std::string name = (start.function.empty() ? format_where(start) : start.function) + " [" +
                                     std::to_string(value & 0x7f) + "]";
            events.push_back({{"name", name}, {"cat", "span"}, {"ph", "X"}, {"ts", t0}, {"dur", ts - t0}, {"pid", pid},
                              {"tid", 0},
                              {"args", {{"open", format_where(start)}, {"close", format_where(r)}, {"value", value & 0x7f}}}});
        }
    }
    return events;
}

nlohmann::ordered_json chrome_trace(const std::vector<ChromeTrack>& tracks) {
    using J = nlohmann::ordered_json;
    J events = J::array();
    J nodes = J::array();
    bool simulated = true;
    for (const ChromeTrack& t : tracks) {
        for (auto& e : chrome_events(t)) events.push_back(std::move(e));
        nodes.push_back(t.node);
        simulated = simulated && t.simulated_time;
    }
    return J{{"traceEvents", std::move(events)},
             {"displayTimeUnit", "ns"},
             {"otherData", {{"generator", "niclab"}, {"nodes", std::move(nodes)},
                            {"time_axis", simulated ? "simulated" : "per-node core clock"}}}};
}

void write_chrome_trace(const std::vector<ChromeTrack>& tracks, const std::filesystem::path& path) {
    std::ofstream f(path);
    if (!f) throw TraceError("cannot write " + path.string());
    f << chrome_trace(tracks).dump();
    if (!f.flush()) throw TraceError("cannot write " + path.string());
}

}  // namespace niclab::trace
