#pragma once
// An experiment's options as JSON (from Python keyword arguments, the CLI's
// `--option key=value`, or the GUI). Every read names its key in errors, and keys that
// no reader asked for are refused, so a typo is an error, never a silent default.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "niclab/sim/error.hpp"

namespace niclab::exp {

class ExperimentError : public Error {
public:
    using Error::Error;
};

// An option as its experiment reads it, for a form that offers every option with its
// default (the GUI's experiment runner): recorded by Options as the experiment asks.
struct OptionInfo {
    std::string key;
    std::string kind;          // "integer", "number", "text", "integer list", "number list"
    nlohmann::json fallback;   // the default; an empty list where the experiment plans its own
    std::string unit;          // option_unit(key)
    std::optional<uint64_t> max;
    std::vector<std::string> allowed;  // text: the values it takes (empty: any)
};

// An option's unit, from the project's naming convention (DESIGN.md: times in us, sizes
// in bytes): "_us" and "_ns" suffixes, "_bytes" and the size keys are bytes. Empty for counts.
std::string option_unit(const std::string& key);

// Thrown by Options::reject_unknown() while a DescribeOptions is alive on the thread:
// every experiment reads all its options and checks them before it builds anything, so
// describe_options() (experiments.hpp) learns them without running. Deliberately not an
// Error, so no handler meant for a failed run takes it.
struct OptionsDescribed {
    std::vector<OptionInfo> options;
};

class DescribeOptions {
public:
    DescribeOptions();
    ~DescribeOptions();
    DescribeOptions(const DescribeOptions&) = delete;
    DescribeOptions& operator=(const DescribeOptions&) = delete;
};

class Options {
public:
    Options(std::string experiment, nlohmann::json j);  // throws ExperimentError unless an object

    uint64_t unsigned_int(const std::string& key, uint64_t fallback);
    // ... and at most `max`: a bound that keeps a typo from running for days.
    uint64_t unsigned_int(const std::string& key, uint64_t fallback, uint64_t max);
    double number(const std::string& key, double fallback);
    std::string text(const std::string& key, const std::string& fallback, const std::vector<std::string>& allowed);
    std::vector<uint64_t> unsigned_list(const std::string& key);          // empty when absent
    std::vector<double> number_list(const std::string& key, std::vector<double> fallback);

    // Every option actually used, with defaults filled in (stored in Result::params).
    const nlohmann::json& used() const { return used_; }
    // Throws ExperimentError naming the first key nothing asked for, and the known ones.
    // Inside a DescribeOptions scope it throws OptionsDescribed instead of checking.
    void reject_unknown() const;
    // The options asked for so far, in the order asked.
    const std::vector<OptionInfo>& described() const { return described_; }

private:
    [[noreturn]] void bad(const std::string& key, const std::string& want) const;
    OptionInfo& note(const std::string& key, const char* kind, nlohmann::json fallback);

    std::string experiment_;
    nlohmann::json j_;
    nlohmann::json used_ = nlohmann::json::object();
    std::set<std::string> asked_;
    std::vector<OptionInfo> described_;
};

}  // namespace niclab::exp
