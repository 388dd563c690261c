#include "niclab/exp/published_points.hpp"

#include "niclab/system/published.hpp"

namespace niclab::exp {

std::vector<PublishedPoint> published_points(const Result& result, const std::string& column) {
    std::vector<PublishedPoint> points;
    if (!result.system.is_object() || !result.system.contains("system") || !result.system["system"].is_string())
        return points;
    if (!result.has_column(column)) return points;
    const std::string system = result.system["system"].get<std::string>();
    const std::string unit = result.columns().at(result.column_index(column)).unit;
    for (const auto& e : system::published(system)) {
        if (e.value("experiment", "") != result.experiment() || e.value("column", "") != column) continue;
        if (!e.contains("x") || !e["x"].is_number() || !e.contains("value") || !e["value"].is_number()) continue;
        if (e.value("unit", "") != unit) continue;  // a packet size read off a bandwidth curve is not a bandwidth
        bool same = true;
        if (e.contains("options") && e["options"].is_object())
            for (const auto& [k, v] : e["options"].items())
                if (!result.params.is_object() || !result.params.contains(k) || result.params[k] != v) same = false;
        if (!same) continue;
        points.push_back({e["x"].get<double>(), e["value"].get<double>(), system + ": " + e.value("source", "")});
    }
    return points;
}

}  // namespace niclab::exp
