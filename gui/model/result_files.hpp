#pragma once
// Saving a Result in the formats the CLI writes (`niclab run --out FILE`), chosen by
// the file name's ending as Result.save does: .json (lossless), .csv, .osu/.txt (the OSU
// micro-benchmarks' two columns), .np.out/.out (NetPIPE). The text is the core's own
// (Result::to_json, to_csv, osu_text, netpipe_text).
#include <string>

#include "niclab/exp/result.hpp"

namespace niclab::gui {

// "json", "csv", "osu", "netpipe", or empty when the name says none.
std::string format_for(const std::string& path);
// `osu_column`: the value column of the OSU format. Throws InputError naming the file
// (an unknown ending, an unwritable path) or ResultError (no such column).
void save_result(const exp::Result& result, const std::string& path, const std::string& osu_column);

}  // namespace niclab::gui
