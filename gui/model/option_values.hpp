#pragma once
// An experiment option typed into the form, as the JSON the experiment reads. The
// syntax is the CLI's `--option key=value`: numbers, sizes with K/M/G suffixes
// (K = 1024 B, as NetPIPE's sizes), comma-separated lists; empty means the default.
#include <string>

#include <nlohmann/json.hpp>

#include "niclab/exp/options.hpp"

namespace niclab::gui {

// Null for empty text (the experiment's default). Throws InputError naming the option.
nlohmann::json option_value(const exp::OptionInfo& option, const std::string& text);

// The default as the form shows it ("8388608", "0, 5, 10, 20"); empty for an empty list.
std::string option_default_text(const exp::OptionInfo& option);

}  // namespace niclab::gui
