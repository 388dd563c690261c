#include "niclab/exp/result.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "niclab/trace/trace_json.hpp"

namespace niclab::exp {

namespace {

constexpr int kFormatVersion = 1;

// Shortest text that reads back as the same double, so CSV loses nothing.
std::string number(double v) {
    if (std::isnan(v)) return "nan";
    char buf[32];
    for (int precision = 6; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

template <typename T>
T required(const nlohmann::json& j, const char* key) {
    if (!j.contains(key)) throw ResultError(std::string("result JSON: missing key '") + key + "'");
    try {
        return j.at(key).get<T>();
    } catch (const nlohmann::json::exception& e) {
        throw ResultError(std::string("result JSON: key '") + key + "' has the wrong type: " + e.what());
    }
}

// A key that may be absent (then `fallback`), but when present must have type T; a
// JSON value of kind `kind` ("object", "array") for the free-form fields.
template <typename T>
T optional(const nlohmann::json& j, const char* key, T fallback) {
    return j.contains(key) ? required<T>(j, key) : fallback;
}

nlohmann::json optional_json(const nlohmann::json& j, const char* key, nlohmann::json::value_t kind) {
    if (!j.contains(key)) return nlohmann::json(kind);
    const auto& v = j.at(key);
    if (v.type() != kind)
        throw ResultError(std::string("result JSON: key '") + key + "' must be " +
                          (kind == nlohmann::json::value_t::object ? "an object" : "an array") + ", not " +
                          v.type_name());
    return v;
}

// A count or a seed: absent (0) or a non-negative integer.
uint64_t optional_unsigned(const nlohmann::json& j, const char* key) {
    if (!j.contains(key)) return 0;
    const auto& v = j.at(key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
        throw ResultError(std::string("result JSON: key '") + key + "' must be a non-negative integer, not " + v.dump());
    return v.get<uint64_t>();
}

// Observations (exp::Observe) as Result::observations documents them; a ResultError
// names the first entry that is not.
void check_observations(const nlohmann::json& obs) {
    using kind = nlohmann::json::value_t;
    auto entries = [&](const char* key, const char* what) {
        const nlohmann::json& list = optional_json(obs, key, kind::array);
        for (size_t i = 0; i < list.size(); ++i)
            if (!list[i].is_object())
                throw ResultError("result JSON: observations." + std::string(key) + "[" + std::to_string(i) +
                                  "] must be an object (" + what + ")");
        return list;
    };
    for (const auto& c : entries("counters", "node, counters")) {
        if (!c.contains("node") || !c.contains("counters"))
            throw ResultError("result JSON: observations.counters: an entry needs 'node' and 'counters'");
        (void)optional_unsigned(c, "node");
        const nlohmann::json& counts = optional_json(c, "counters", kind::object);
        for (const auto& [name, value] : counts.items())
            if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<int64_t>() >= 0))
                throw ResultError("result JSON: observations.counters: counter '" + name +
                                  "' must be a non-negative integer, not " + value.dump());
    }
    for (const auto& t : entries("traces", "a trace")) {
        try {
            (void)trace::from_json(t);
        } catch (const trace::TraceError& e) {
            throw ResultError(std::string("result JSON: observations.traces: ") + e.what());
        }
    }
    for (const auto& b : entries("breakdown", "size, start_ps, end_ps, parts")) {
        for (const char* key : {"size", "start_ps", "end_ps"})
            if (!b.contains(key) || !b[key].is_number_integer())
                throw ResultError(std::string("result JSON: observations.breakdown: '") + key + "' must be an integer");
        // Added later: results written before them have neither.
        if (b.contains("interval") && !b["interval"].is_string())
            throw ResultError("result JSON: observations.breakdown: 'interval' must be text");
        if (b.contains("messages") && !(b["messages"].is_number_integer() && b["messages"].get<int64_t>() >= 1))
            throw ResultError("result JSON: observations.breakdown: 'messages' must be an integer of at least 1");
        for (const auto& p : optional_json(b, "parts", kind::array)) {
            if (!p.is_object() || !p.contains("part") || !p["part"].is_string() || !p.contains("detail") ||
                !p["detail"].is_string())
                throw ResultError("result JSON: observations.breakdown: a part must have text 'part' and 'detail'");
            for (const char* key : {"node", "time_ps", "busy_ps"})
                if (!p.contains(key) || !p[key].is_number_integer())
                    throw ResultError(std::string("result JSON: observations.breakdown: a part's '") + key +
                                      "' must be an integer");
        }
    }
}

}  // namespace

Result::Result(std::string experiment, std::vector<Column> columns)
    : experiment_(std::move(experiment)), columns_(std::move(columns)) {}

bool Result::has_column(const std::string& name) const {
    return std::any_of(columns_.begin(), columns_.end(), [&](const Column& c) { return c.name == name; });
}

size_t Result::column_index(const std::string& name) const {
    for (size_t i = 0; i < columns_.size(); ++i)
        if (columns_[i].name == name) return i;
    std::string names;
    for (const Column& c : columns_) names += (names.empty() ? "" : ", ") + c.name;
    throw ResultError(experiment_ + " result has no column '" + name + "' (it has: " + names + ")");
}

std::vector<double> Result::column(const std::string& name) const {
    const size_t i = column_index(name);
    std::vector<double> out;
    out.reserve(rows_.size());
    for (const auto& r : rows_) out.push_back(r[i]);
    return out;
}

void Result::add_row(std::vector<double> values) {
    if (values.size() != columns_.size())
        throw ResultError(experiment_ + " result: a row of " + std::to_string(values.size()) + " values for " +
                          std::to_string(columns_.size()) + " columns");
    rows_.push_back(std::move(values));
}

nlohmann::json Result::to_json() const {
    nlohmann::json cols = nlohmann::json::array();
    for (const Column& c : columns_) cols.push_back({{"name", c.name}, {"unit", c.unit}});
    // NaN is not JSON; a missing measurement is written as null.
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : rows_) {
        nlohmann::json row = nlohmann::json::array();
        for (double v : r) row.push_back(std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v));
        rows.push_back(std::move(row));
    }
    return {{"format", "niclab-result"}, {"version", kFormatVersion}, {"experiment", experiment_},
            {"columns", cols}, {"rows", rows}, {"params", params}, {"system", system},
            {"firmware", firmware}, {"seed", seed}, {"simulator", simulator}, {"fit", fit}, {"stopped", stopped}, {"planned", planned},
            {"observations", observations}};
}

Result Result::from_json(const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("format") || j.at("format") != "niclab-result")
        throw ResultError("result JSON: not a niclab result (key 'format' is not \"niclab-result\")");
    if (required<int>(j, "version") > kFormatVersion)
        throw ResultError("result JSON: version " + std::to_string(j.at("version").get<int>()) +
                          " is newer than this niclab reads (" + std::to_string(kFormatVersion) + ")");
    using kind = nlohmann::json::value_t;
    std::vector<Column> cols;
    if (!j.contains("columns")) throw ResultError("result JSON: missing key 'columns'");
    for (const auto& c : optional_json(j, "columns", kind::array)) {
        if (!c.is_object()) throw ResultError(std::string("result JSON: a column must be an object, not ") + c.type_name());
        cols.push_back({required<std::string>(c, "name"), optional<std::string>(c, "unit", "")});
    }
    Result r(required<std::string>(j, "experiment"), std::move(cols));
    size_t index = 0;
    if (!j.contains("rows")) throw ResultError("result JSON: missing key 'rows'");
    for (const auto& row : optional_json(j, "rows", kind::array)) {
        if (!row.is_array() || row.size() != r.columns_.size())
            throw ResultError("result JSON: rows[" + std::to_string(index) + "] does not have " +
                              std::to_string(r.columns_.size()) + " values");
        std::vector<double> values;
        for (const auto& v : row) {
            if (!v.is_null() && !v.is_number())
                throw ResultError("result JSON: rows[" + std::to_string(index) + "] has a " + v.type_name() +
                                  " where a number (or null) belongs");
            values.push_back(v.is_null() ? NAN : v.get<double>());
        }
        r.rows_.push_back(std::move(values));
        ++index;
    }
    r.params = optional_json(j, "params", kind::object);
    r.system = optional_json(j, "system", kind::object);
    r.firmware = optional_json(j, "firmware", kind::array);
    for (const auto& f : r.firmware) {  // per node: {node, path, build_id}
        if (!f.is_object()) throw ResultError(std::string("result JSON: a firmware entry must be an object, not ") + f.type_name());
        (void)optional_unsigned(f, "node");
        (void)optional<std::string>(f, "path", "");
        (void)optional<std::string>(f, "build_id", "");
    }
    r.fit = optional_json(j, "fit", kind::object);
    r.seed = optional_unsigned(j, "seed");
    r.simulator = optional<std::string>(j, "simulator", "");
    r.stopped = optional<bool>(j, "stopped", false);
    r.planned = optional_unsigned(j, "planned");
    r.observations = optional_json(j, "observations", kind::object);
    check_observations(r.observations);
    return r;
}

std::string Result::to_csv() const {
    std::ostringstream out;
    // Metadata as comment lines, so spreadsheet and pandas (comment="#") readers skip it.
    out << "# niclab " << experiment_ << " result; seed " << seed << (stopped ? "; stopped early" : "")
        << (simulator.empty() ? "" : "; niclab " + simulator) << "\n";
    out << "# params: " << params.dump() << "\n";
    out << "# firmware: " << firmware.dump() << "\n";
    out << "# system: " << system.dump() << "\n";
    if (!fit.empty()) out << "# fit: " << fit.dump() << "\n";
    for (size_t i = 0; i < columns_.size(); ++i) out << (i ? "," : "") << columns_[i].name;
    out << "\n";
    for (const auto& r : rows_) {
        for (size_t i = 0; i < r.size(); ++i) out << (i ? "," : "") << number(r[i]);
        out << "\n";
    }
    return out.str();
}

std::string Result::osu_text(const std::string& value_column) const {
    const size_t size = column_index("size"), value = column_index(value_column);
    const Column& c = columns_[value];
    const std::string title = c.unit == "us" ? "Latency (us)" : c.unit == "MB/s" ? "Bandwidth (MB/s)" : c.name;
    std::string out = "# niclab " + experiment_ + " (OSU format)\n";
    char line[96];
    // OSU's layout: size left-aligned in 10 characters, the value right-aligned in 20 with 2 decimals.
    std::snprintf(line, sizeof line, "%-10s%20s\n", "# Size", title.c_str());
    out += line;
    for (const auto& r : rows_) {
        std::snprintf(line, sizeof line, "%-10" PRIu64 "%20.2f\n", uint64_t(r[size]), r[value]);
        out += line;
    }
    return out;
}

std::string Result::netpipe_text() const {
    const size_t size = column_index("size"), time = column_index("latency_us"),
                 bw = column_index("bandwidth_mb_s");
    std::string out;
    char line[96];
    for (const auto& r : rows_) {
        // np.out: bytes, Mbps (MB/s * 8), usec, as NetPIPE 3.x writes it.
        std::snprintf(line, sizeof line, "%9" PRIu64 " %16.8f %16.8f\n", uint64_t(r[size]), r[bw] * 8.0, r[time]);
        out += line;
    }
    return out;
}

}  // namespace niclab::exp
