#include "model/option_values.hpp"

#include <cctype>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "model/input_error.hpp"

namespace niclab::gui {

namespace {

std::string trim(const std::string& s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    return s.substr(a, b - a);
}

[[noreturn]] void bad(const exp::OptionInfo& o, const std::string& text, const std::string& want) {
    throw InputError("option '" + o.key + "': \"" + text + "\" is not " + want);
}

uint64_t size_value(const exp::OptionInfo& o, const std::string& text) {
    static const std::regex size(R"(^(\d+)\s*([kmgKMG]?)(i?[bB])?$)");
    std::smatch m;
    const std::string t = trim(text);
    if (!std::regex_match(t, m, size)) bad(o, text, "a non-negative integer (sizes may say 64K, 8M, 1G)");
    uint64_t v = std::strtoull(m[1].str().c_str(), nullptr, 10);
    const char unit = m[2].length() ? char(std::tolower(m[2].str()[0])) : 0;
    if (unit == 'k') v <<= 10;
    if (unit == 'm') v <<= 20;
    if (unit == 'g') v <<= 30;
    return v;
}

double number_value(const exp::OptionInfo& o, const std::string& text) {
    const std::string t = trim(text);
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || end != t.c_str() + t.size()) bad(o, text, "a number");
    return v;
}

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ','))
        if (!trim(part).empty()) parts.push_back(part);
    return parts;
}

}  // namespace

nlohmann::json option_value(const exp::OptionInfo& o, const std::string& text) {
    if (trim(text).empty()) return nullptr;
    if (o.kind == "integer") {
        const uint64_t v = size_value(o, text);
        if (o.max && v > *o.max) bad(o, text, "at most " + std::to_string(*o.max));
        return v;
    }
    if (o.kind == "number") return number_value(o, text);
    if (o.kind == "integer list") {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& p : split(text)) list.push_back(size_value(o, p));
        return list;
    }
    if (o.kind == "number list") {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& p : split(text)) list.push_back(number_value(o, p));
        return list;
    }
    return trim(text);  // text: the experiment checks the allowed values and names them
}

std::string option_default_text(const exp::OptionInfo& o) {
    const auto& d = o.fallback;
    if (d.is_string()) return d.get<std::string>();
    if (d.is_array()) {
        std::string s;
        for (const auto& e : d) s += (s.empty() ? "" : ", ") + e.dump();
        return s;
    }
    return d.is_null() ? "" : d.dump();
}

}  // namespace niclab::gui
