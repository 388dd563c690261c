#pragma once
// Hardware presets: a system (system_model.hpp) and a value for each parameter it
// declares, each with its unit and the source it comes from (a seed section, a
// datasheet, or "assumption: ..."), plus the parts the preset is made of (host, host
// bus, NIC, network). Values are doubles with units ("bus.clock_hz": 33333333.3);
// parameters declared whole (counts, sizes, flags) must hold whole numbers. A preset's
// "parts" entry is a description, or the name of a part file (cpp/src/parts/<kind>/)
// whose values and citations the preset takes before its own "parameters". A preset
// with a "base" starts from that preset and lists only what differs.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace niclab::system {

class SystemModel;

struct Parameter {
    std::string key;      // "core.clock_mhz"
    double value = 0;
    std::string unit;
    std::string source;   // citation, "assumption: ...", or "override"
};

class Preset {
public:
    static Preset named(const std::string& name);  // throws ConfigError("preset", ...)
    static std::vector<std::string> names();

    const std::string& name() const { return name_; }
    const std::string& description() const { return description_; }
    const std::string& system() const { return system_; }  // the SystemModel's name
    const SystemModel& model() const;
    // Part -> what it is ({"host": "SUN E5000, 166 MHz UltraSPARC-1", "bus": ...}).
    const nlohmann::json& parts() const { return parts_; }
    const std::vector<Parameter>& parameters() const { return params_; }

    // Swap in a part (cpp/src/parts/<kind>/<name>.json): its parameters replace the
    // preset's, with the part's citations, and parts()[kind] names it. ConfigError
    // ("parts.<kind>") for an unknown part, a part of another kind, or a part whose
    // parameters this system does not have (a PCI bus on the SeaStar).
    void apply_part(const std::string& kind, const std::string& name);
    // Every part: {name, part (kind), description, parameters}.
    static const std::vector<nlohmann::json>& parts_available();

    // Override parameters from a flat or nested JSON object of numbers; errors name
    // the key path under `path_prefix` (e.g. "set").
    void apply_overrides(const nlohmann::json& overrides, const std::string& path_prefix);
    double value(const std::string& key) const;    // throws ConfigError
    int64_t integer(const std::string& key) const;  // value() of a whole-number parameter
    bool has(const std::string& key) const;

    // {key: value} with whole numbers as JSON integers (results embed it).
    nlohmann::json values_json() const;

private:
    static Preset read(const std::string& name);  // from its file (named() keeps what it read)
    std::string name_, description_, system_;
    nlohmann::json parts_ = nlohmann::json::object();
    std::vector<Parameter> params_;
};

// A whole number as a JSON integer, anything else as a double.
nlohmann::json number_json(double v);

}  // namespace niclab::system
