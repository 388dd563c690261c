#pragma once
// The outcome of an experiment: a table of measured points (one row per message size,
// per m of a LogP signature, ...), the fitted model parameters, and everything needed to
// reproduce it (the full system spec with the resolved preset parameters, the firmware
// identity of every node, the seed, the experiment's own parameters). Rows are appended
// while the run proceeds, so observers see a growing table.
//
// Written as JSON (lossless, read back by from_json), CSV (a commented header with
// the metadata, then one row per point), and the de-facto text formats researchers
// compare against: the OSU micro-benchmarks' two columns and NetPIPE's np.out.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "niclab/sim/error.hpp"

namespace niclab::exp {

class ResultError : public Error {
public:
    using Error::Error;
};

struct Column {
    std::string name;  // "size", "latency_us", ...
    std::string unit;  // "B", "us", "MB/s", "" for counts
};

class Result {
public:
    Result() = default;
    Result(std::string experiment, std::vector<Column> columns);

    const std::string& experiment() const { return experiment_; }
    const std::vector<Column>& columns() const { return columns_; }
    size_t rows() const { return rows_.size(); }
    const std::vector<double>& row(size_t i) const { return rows_.at(i); }
    // One column as a vector; throws ResultError naming the column and the ones there are.
    std::vector<double> column(const std::string& name) const;
    size_t column_index(const std::string& name) const;
    bool has_column(const std::string& name) const;
    void add_row(std::vector<double> values);  // throws ResultError on a width mismatch

    // Reproducibility metadata and the fitted model; free-form JSON objects.
    nlohmann::json params = nlohmann::json::object();    // the experiment's own parameters
    nlohmann::json system = nlohmann::json::object();    // SystemSpec + resolved preset parameters
    nlohmann::json firmware = nlohmann::json::array();   // per node: path, build id
    uint64_t seed = 0;
    std::string simulator;                                // the niclab version that measured it
    nlohmann::json fit = nlohmann::json::object();       // model parameters fitted to the rows
    bool stopped = false;                                 // stopped early; the rows are the points done
    uint64_t planned = 0;                                 // points the run will measure (0: not known)
    // What the run observed when asked (exp::Observe), read when it ended: {"time_us",
    // "counters": [{"node", "counters": {name: count}}], "traces": [trace_json.hpp]}.
    // An empty object when nothing was asked for.
    nlohmann::json observations = nlohmann::json::object();

    nlohmann::json to_json() const;
    static Result from_json(const nlohmann::json& j);  // throws ResultError naming the key
    std::string to_csv() const;
    // OSU micro-benchmarks' output: "# Size  Latency (us)" (or Bandwidth (MB/s)) and
    // one line per size. `value_column` picks the second column.
    std::string osu_text(const std::string& value_column) const;
    // NetPIPE's np.out: per size, bytes, throughput in Mbps (10^6 bits/s) and time in us.
    std::string netpipe_text() const;

private:
    std::string experiment_;
    std::vector<Column> columns_;
    std::vector<std::vector<double>> rows_;
};

}  // namespace niclab::exp
