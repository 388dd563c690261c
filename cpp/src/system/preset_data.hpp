#pragma once
// The preset JSON files, embedded at build time (preset_data.cpp is generated).
#include <string_view>
#include <utility>
#include <vector>

namespace niclab::system {
const std::vector<std::pair<std::string_view, std::string_view>>& preset_sources();
}
