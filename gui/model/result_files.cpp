#include "model/result_files.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "model/input_error.hpp"

namespace niclab::gui {

std::string format_for(const std::string& path) {
    std::string name = std::filesystem::path(path).filename().string();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    // Longest ending first, as the Python package's table.
    static const std::pair<const char*, const char*> endings[] = {
        {".np.out", "netpipe"}, {".out", "netpipe"}, {".json", "json"}, {".csv", "csv"}, {".osu", "osu"}, {".txt", "osu"}};
    for (const auto& [ending, format] : endings)
        if (name.ends_with(ending)) return format;
    return "";
}

void save_result(const exp::Result& result, const std::string& path, const std::string& osu_column) {
    const std::string format = format_for(path);
    std::string text;
    if (format == "json") text = result.to_json().dump(1) + "\n";
    else if (format == "csv") text = result.to_csv();
    else if (format == "osu") text = result.osu_text(osu_column);
    else if (format == "netpipe") text = result.netpipe_text();
    else
        throw InputError("'" + std::filesystem::path(path).filename().string() +
                         "': cannot tell the format from its name (end it in .json, .csv, .osu, .txt, .np.out or .out)");
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw InputError("'" + path + "': cannot be written");
}

}  // namespace niclab::gui
