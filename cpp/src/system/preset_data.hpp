#pragma once
// The systems' preset and published-result JSON files, embedded at build time
// (preset_data.cpp is generated): (preset name, text) and (system name, text).
#include <string_view>
#include <utility>
#include <vector>

namespace niclab::system {
const std::vector<std::pair<std::string_view, std::string_view>>& preset_sources();
const std::vector<std::pair<std::string_view, std::string_view>>& published_sources();
}
