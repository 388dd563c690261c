#include "niclab/exp/options.hpp"

#include <algorithm>

namespace niclab::exp {

namespace {
thread_local int describing = 0;

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
}  // namespace

std::string option_unit(const std::string& key) {
    if (ends_with(key, "_us")) return "us";
    if (ends_with(key, "_ns")) return "ns";
    if (ends_with(key, "_bytes") || key == "size" || key == "sizes" || key == "max_size" || key == "min_size" ||
        key == "perturbation")
        return "B";
    return "";
}

DescribeOptions::DescribeOptions() { ++describing; }
DescribeOptions::~DescribeOptions() { --describing; }

OptionInfo& Options::note(const std::string& key, const char* kind, nlohmann::json fallback) {
    for (auto& d : described_)
        if (d.key == key) return d;
    described_.push_back({key, kind, std::move(fallback), option_unit(key), std::nullopt, {}});
    return described_.back();
}

Options::Options(std::string experiment, nlohmann::json j) : experiment_(std::move(experiment)), j_(std::move(j)) {
    if (j_.is_null()) j_ = nlohmann::json::object();
    if (!j_.is_object()) throw ExperimentError(experiment_ + " options: expected an object of key: value, got " + j_.dump());
}

void Options::bad(const std::string& key, const std::string& want) const {
    throw ExperimentError(experiment_ + " option '" + key + "': expected " + want + ", got " + j_.at(key).dump());
}

uint64_t Options::unsigned_int(const std::string& key, uint64_t fallback) {
    asked_.insert(key);
    note(key, "integer", fallback);
    uint64_t v = fallback;
    if (j_.contains(key)) {
        const auto& x = j_.at(key);
        if (x.is_number_unsigned()) v = x.get<uint64_t>();
        else if (x.is_number_integer() && x.get<int64_t>() >= 0) v = uint64_t(x.get<int64_t>());
        else bad(key, "a non-negative integer");
    }
    used_[key] = v;
    return v;
}

uint64_t Options::unsigned_int(const std::string& key, uint64_t fallback, uint64_t max) {
    const uint64_t v = unsigned_int(key, fallback);
    note(key, "integer", fallback).max = max;
    if (v > max) bad(key, "an integer of at most " + std::to_string(max));
    return v;
}

double Options::number(const std::string& key, double fallback) {
    asked_.insert(key);
    note(key, "number", fallback);
    double v = fallback;
    if (j_.contains(key)) {
        if (!j_.at(key).is_number()) bad(key, "a number");
        v = j_.at(key).get<double>();
    }
    used_[key] = v;
    return v;
}

std::string Options::text(const std::string& key, const std::string& fallback, const std::vector<std::string>& allowed) {
    asked_.insert(key);
    note(key, "text", fallback).allowed = allowed;
    std::string v = fallback;
    if (j_.contains(key)) {
        if (!j_.at(key).is_string()) bad(key, "a string");
        v = j_.at(key).get<std::string>();
    }
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        throw ExperimentError(experiment_ + " option '" + key + "': \"" + v + "\" is not one of " + list);
    }
    used_[key] = v;
    return v;
}

std::vector<uint64_t> Options::unsigned_list(const std::string& key) {
    asked_.insert(key);
    note(key, "integer list", nlohmann::json::array());
    std::vector<uint64_t> v;
    if (j_.contains(key)) {
        const auto& x = j_.at(key);
        if (!x.is_array()) bad(key, "a list of non-negative integers");
        for (const auto& e : x) {
            if (!e.is_number_integer() || e.get<int64_t>() < 0) bad(key, "a list of non-negative integers");
            v.push_back(e.get<uint64_t>());
        }
        used_[key] = v;
    }
    return v;
}

std::vector<double> Options::number_list(const std::string& key, std::vector<double> fallback) {
    asked_.insert(key);
    note(key, "number list", fallback);
    if (j_.contains(key)) {
        const auto& x = j_.at(key);
        if (!x.is_array()) bad(key, "a list of numbers");
        fallback.clear();
        for (const auto& e : x) {
            if (!e.is_number()) bad(key, "a list of numbers");
            fallback.push_back(e.get<double>());
        }
    }
    used_[key] = fallback;
    return fallback;
}

void Options::reject_unknown() const {
    if (describing) throw OptionsDescribed{described_};
    for (const auto& [key, value] : j_.items()) {
        if (asked_.count(key)) continue;
        std::string known;
        for (const auto& k : asked_) known += (known.empty() ? "" : ", ") + k;
        throw ExperimentError(experiment_ + ": unknown option '" + key + "' (its options are: " + known + ")");
    }
}

}  // namespace niclab::exp
