#include "niclab/system/preset.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <variant>

#include "niclab/system/config_error.hpp"
#include "niclab/system/system_model.hpp"
#include "preset_data.hpp"

namespace niclab::system {

namespace {

void flatten(const nlohmann::json& j, const std::string& prefix, std::map<std::string, const nlohmann::json*>& out,
             const std::string& path_prefix) {
    if (!j.is_object())
        throw ConfigError(path_prefix.empty() ? "set" : path_prefix, "expected an object of parameters");
    for (auto it = j.begin(); it != j.end(); ++it) {
        std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
        if (it->is_object()) flatten(*it, key, out, path_prefix);
        else out[key] = &*it;
    }
}

const ParameterDecl* find_decl(const std::vector<ParameterDecl>& decls, const std::string& key) {
    auto it = std::find_if(decls.begin(), decls.end(), [&](const ParameterDecl& d) { return d.key == key; });
    return it == decls.end() ? nullptr : &*it;
}

std::string format(double v) {
    if (v == std::floor(v) && std::fabs(v) < 9e15) return std::to_string(int64_t(v));
    return number_json(v).dump();
}

// Checks `v` against the declaration; `path` names the key in errors.
void check_value(const ParameterDecl& d, double v, const std::string& path) {
    if (!std::isfinite(v)) throw ConfigError(path, "expected a finite number (" + d.unit + ")");
    if (d.integer && v != std::floor(v))
        throw ConfigError(path, "expected a whole number (" + d.unit + "), got " + format(v));
    if (v < d.min || v > d.max)
        throw ConfigError(path, "value " + format(v) + " out of range [" + format(d.min) + ", " + format(d.max) + "]");
}

}  // namespace

nlohmann::json number_json(double v) {
    if (v == std::floor(v) && std::fabs(v) < 9e15) return int64_t(v);
    return v;
}

std::vector<std::string> Preset::names() {
    std::vector<std::string> n;
    for (const auto& [name, text] : preset_sources()) n.emplace_back(name);
    return n;
}

Preset Preset::named(const std::string& name) {
    // Every preset read once, at the first call: a system's build names one, and reading
    // it - its JSON and every part's - was a third of building a two-node SeaStar and
    // running its first round trip on a recycled code pool (core/code_pool.hpp). A preset
    // whose file is wrong keeps its error for whoever names it (a logic_error: the files
    // are compiled in).
    static const std::map<std::string, std::variant<Preset, std::string>> read_once = [] {
        std::map<std::string, std::variant<Preset, std::string>> all;
        for (const auto& n : names()) {
            try {
                all.emplace(n, read(n));
            } catch (const std::exception& e) {
                all.emplace(n, std::string(e.what()));
            }
        }
        return all;
    }();
    const auto it = read_once.find(name);
    if (it == read_once.end()) {
        std::string known;
        for (const auto& n : names()) known += (known.empty() ? "" : ", ") + n;
        throw ConfigError("preset", "unknown preset '" + name + "' (known: " + known + ")");
    }
    if (const auto* error = std::get_if<std::string>(&it->second)) throw std::logic_error(*error);
    return std::get<Preset>(it->second);
}

Preset Preset::read(const std::string& name) {
    for (const auto& [preset_name, text] : preset_sources()) {
        if (preset_name != name) continue;
        auto j = nlohmann::json::parse(text);
        Preset p;
        // A preset that differs from another in a few values (the T9000 at 25 MHz) names
        // it as its "base" and lists only what differs.
        if (j.contains("base")) {
            p = Preset::read(j.at("base"));
            if (p.system_ != j.at("system"))
                throw std::logic_error("preset " + name + " is of system " + j.at("system").get<std::string>() +
                                       " but its base " + p.name_ + " of " + p.system_);
        }
        p.name_ = j.at("name");
        p.description_ = j.value("description", "");
        p.system_ = j.at("system");
        const auto own_parts = j.value("parts", nlohmann::json::object());
        for (auto it = own_parts.begin(); it != own_parts.end(); ++it) p.parts_[it.key()] = it.value();
        const auto decls = p.model().parameters();
        auto set = [&](const std::string& key, const nlohmann::json& entry, const std::string& source) {
            const ParameterDecl* d = find_decl(decls, key);
            if (!d) throw std::logic_error("preset " + name + " sets " + key + ", which system " + p.system_ + " does not declare");
            const double v = entry.at("value").get<double>();
            check_value(*d, v, "preset " + name + ": " + key);
            auto it = std::find_if(p.params_.begin(), p.params_.end(), [&](const Parameter& q) { return q.key == key; });
            if (it == p.params_.end()) p.params_.push_back(Parameter{key, v, entry.value("unit", d->unit), source});
            else *it = Parameter{key, v, entry.value("unit", d->unit), source};
        };
        // A part named by its file (two systems built on one part, like the DS-link
        // network of the T9000 and the DSNIC) brings its values and citations; the
        // preset's own values override them.
        for (auto& [kind, named] : p.parts_.items()) {
            for (const auto& part : parts_available()) {
                if (part.at("part") != kind || part.at("name") != named) continue;
                for (auto& [key, entry] : part.at("parameters").items())
                    set(key, entry, "part " + named.get<std::string>() + ": " + entry.at("source").get<std::string>());
                named = part.at("description");
            }
        }
        for (auto& [key, entry] : j.at("parameters").items()) set(key, entry, entry.at("source"));
        for (const auto& d : decls)
            if (!p.has(d.key)) throw std::logic_error("preset " + name + " gives no value for " + d.key);
        return p;
    }
    throw std::logic_error("no preset is named " + name + ", which a preset names as its base");
}

const SystemModel& Preset::model() const { return system_model(system_); }

const std::vector<nlohmann::json>& Preset::parts_available() {
    static const std::vector<nlohmann::json> parsed = [] {  // once: every preset and part swap reads them
        std::vector<nlohmann::json> out;
        for (const auto& [name, text] : part_sources()) out.push_back(nlohmann::json::parse(text));
        return out;
    }();
    return parsed;
}

void Preset::apply_part(const std::string& kind, const std::string& name) {
    const std::string path = "parts." + kind;
    if (!parts_.contains(kind))
        throw ConfigError(path, "system '" + system_ + "' has no part '" + kind + "' (its parts: host, bus, nic, network)");
    std::string known;
    for (const auto& part : parts_available()) {
        if (part.at("part") != kind) continue;
        known += (known.empty() ? "" : ", ") + part.at("name").get<std::string>();
        if (part.at("name") != name) continue;
        const auto decls = model().parameters();
        for (auto& [key, entry] : part.at("parameters").items()) {
            const ParameterDecl* d = find_decl(decls, key);
            if (!d)
                throw ConfigError(path, kind + " part '" + name + "' sets " + key + ", which system '" + system_ +
                                            "' does not have: the part does not fit this system");
            const double v = entry.at("value").get<double>();
            check_value(*d, v, path + ": " + key);
            auto it = std::find_if(params_.begin(), params_.end(), [&](const Parameter& p) { return p.key == key; });
            it->value = v;
            it->source = "part " + name + ": " + entry.at("source").get<std::string>();
        }
        parts_[kind] = part.at("description");
        return;
    }
    throw ConfigError(path, "unknown " + kind + " part '" + name + "' (known: " + (known.empty() ? "none" : known) + ")");
}

void Preset::apply_overrides(const nlohmann::json& overrides, const std::string& path_prefix) {
    std::map<std::string, const nlohmann::json*> flat;
    flatten(overrides, "", flat, path_prefix);
    const auto decls = model().parameters();
    for (const auto& [key, value] : flat) {
        std::string path = path_prefix.empty() ? key : path_prefix + "." + key;
        auto it = std::find_if(params_.begin(), params_.end(), [&](const Parameter& p) { return p.key == key; });
        if (it == params_.end()) throw ConfigError(path, "unknown parameter of preset '" + name_ + "'");
        const ParameterDecl& d = *find_decl(decls, key);
        if (!value->is_number())
            throw ConfigError(path, std::string("expected ") + (d.integer ? "a whole number" : "a number") + " (" + it->unit +
                                        "), got " + value->type_name());
        const double v = value->get<double>();
        check_value(d, v, path);
        it->value = v;
        it->source = "override";
    }
}

bool Preset::has(const std::string& key) const {
    return std::any_of(params_.begin(), params_.end(), [&](const Parameter& p) { return p.key == key; });
}

double Preset::value(const std::string& key) const {
    for (const auto& p : params_)
        if (p.key == key) return p.value;
    throw ConfigError(key, "unknown parameter of preset '" + name_ + "'");
}

int64_t Preset::integer(const std::string& key) const { return int64_t(std::llround(value(key))); }

nlohmann::json Preset::values_json() const {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& p : params_) out[p.key] = number_json(p.value);
    return out;
}

}  // namespace niclab::system
