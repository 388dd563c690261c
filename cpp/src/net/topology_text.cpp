#include "niclab/net/topology_text.hpp"

#include <charconv>
#include <cstdint>

#include "niclab/net/topology_registry.hpp"

namespace niclab::net {

namespace {

std::string_view trimmed(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// "27x16x24": two or more whole numbers joined by 'x'.
bool read_sizes(std::string_view text, nlohmann::json& sizes) {
    nlohmann::json list = nlohmann::json::array();
    for (size_t start = 0;;) {
        const size_t x = text.find('x', start);
        const std::string_view part = text.substr(start, x == std::string_view::npos ? x : x - start);
        uint64_t n = 0;
        const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), n);
        if (part.empty() || error != std::errc{} || end != part.data() + part.size()) return false;
        list.push_back(n);
        if (x == std::string_view::npos) break;
        start = x + 1;
    }
    if (list.size() < 2) return false;
    sizes = std::move(list);
    return true;
}

nlohmann::json value_of(std::string_view text) {
    nlohmann::json v;
    if (read_sizes(text, v)) return v;
    v = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    return v.is_discarded() ? nlohmann::json(std::string(text)) : v;
}

// A list of two or more whole numbers, written as 27x16x24.
bool sizes_list(const nlohmann::json& v) {
    if (!v.is_array() || v.size() < 2) return false;
    for (const auto& d : v)
        if (!d.is_number_integer() || d.get<int64_t>() < 0) return false;
    return true;
}

}  // namespace

nlohmann::json topology_from_text(std::string_view text) {
    text = trimmed(text);
    if (text.starts_with('{')) {
        try {
            nlohmann::json j = nlohmann::json::parse(text);
            if (j.is_object()) return j;
            throw TopologyConfigError("topology", "not a JSON object");
        } catch (const nlohmann::json::parse_error& e) {
            throw TopologyConfigError("topology", std::string("not a JSON object: ") + e.what());
        }
    }
    const std::string_view kind = text.substr(0, text.find(':'));
    if (kind.empty())
        throw TopologyConfigError("topology", "wants KIND[:KEY=VALUE...], e.g. torus:dims=4x4x4 (got '" + std::string(text) + "')");
    nlohmann::json description{{"kind", std::string(kind)}};
    for (size_t at = kind.size(); at < text.size();) {
        const size_t next = text.find(':', at + 1);
        const std::string_view pair = text.substr(at + 1, next == std::string_view::npos ? next : next - at - 1);
        const size_t eq = pair.find('=');
        if (eq == std::string_view::npos || eq == 0)
            throw TopologyConfigError("topology", "wants KEY=VALUE after " + std::string(kind) + ":, e.g. dims=4x4x4 (got '" +
                                                      std::string(pair) + "')");
        description[std::string(pair.substr(0, eq))] = value_of(pair.substr(eq + 1));
        at = next == std::string_view::npos ? text.size() : next;
    }
    return description;
}

std::string topology_text(const nlohmann::json& description) {
    if (!description.is_object() || !description.contains("kind") || !description["kind"].is_string())
        return description.dump();
    std::string text = description["kind"].get<std::string>();
    for (const auto& [key, value] : description.items()) {
        if (key == "kind") continue;
        std::string written;
        if (sizes_list(value)) {
            for (size_t i = 0; i < value.size(); ++i) {
                if (i) written += 'x';
                written += std::to_string(value[i].get<uint64_t>());
            }
        } else if (value.is_string() && value_of(value.get<std::string>()) == value) {
            written = value.get<std::string>();  // a word reads back as itself (routing=table)
        } else {
            written = value.dump();
        }
        // The short form splits at every colon, so a key or value with one (a text, an
        // object) has only the JSON form, which reads back whole.
        if (key.find_first_of(":=") != std::string::npos || written.find(':') != std::string::npos) return description.dump();
        text += ":" + key + "=" + written;
    }
    return text;
}

}  // namespace niclab::net
