#pragma once
// The systems' preset and published-result JSON files, embedded at build time
// (preset_data.cpp is generated): (preset name, text), (system name, text) and
// (part name, text).
#include <string_view>
#include <utility>
#include <vector>

namespace niclab::system {
const std::vector<std::pair<std::string_view, std::string_view>>& preset_sources();
const std::vector<std::pair<std::string_view, std::string_view>>& published_sources();
const std::vector<std::pair<std::string_view, std::string_view>>& part_sources();  // (part name, text)
}
