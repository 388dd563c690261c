#pragma once
// The simulator's version (CMake's project version), recorded in every Result so a
// measurement says which niclab made it.
#include <string_view>

namespace niclab {

std::string_view simulator_version();

}  // namespace niclab
