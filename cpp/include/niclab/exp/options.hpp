#pragma once
// An experiment's options as JSON (from Python keyword arguments, the CLI's
// `--option key=value`, or the GUI). Every read names its key in errors, and keys that
// no reader asked for are refused, so a typo is an error, never a silent default.
#include <cstdint>
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
    void reject_unknown() const;

private:
    [[noreturn]] void bad(const std::string& key, const std::string& want) const;

    std::string experiment_;
    nlohmann::json j_;
    nlohmann::json used_ = nlohmann::json::object();
    std::set<std::string> asked_;
};

}  // namespace niclab::exp
