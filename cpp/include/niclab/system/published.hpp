#pragma once
// The published results each system is checked against, from its folder's
// published.json (embedded at build time): a JSON array of {"key", "quantity",
// "source", "value", "unit", ...}. Read by `niclab validate`, the plots and the GUI.
#include <string>

#include <nlohmann/json.hpp>

namespace niclab::system {

// The array for `system` (an empty array if the system has no published.json).
const nlohmann::json& published(const std::string& system);

}  // namespace niclab::system
