#include "niclab/system/published.hpp"

#include <map>
#include <mutex>

#include "preset_data.hpp"

namespace niclab::system {

const nlohmann::json& published(const std::string& system) {
    static const std::map<std::string, nlohmann::json> parsed = [] {
        std::map<std::string, nlohmann::json> m;
        for (const auto& [name, text] : published_sources()) m[std::string(name)] = nlohmann::json::parse(text);
        return m;
    }();
    static const nlohmann::json none = nlohmann::json::array();
    auto it = parsed.find(system);
    return it == parsed.end() ? none : it->second;
}

}  // namespace niclab::system
