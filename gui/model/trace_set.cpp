#include "model/trace_set.hpp"

#include <algorithm>
#include <map>

#include "niclab/fw/symbolizer.hpp"
#include "niclab/trace/chrome_json.hpp"
#include "niclab/trace/trace_file.hpp"

namespace niclab::gui {

namespace fs = std::filesystem;

std::string find_source(const std::string& dwarf_path, const std::string& file_name) {
    std::error_code ec;
    if (!dwarf_path.empty() && fs::is_regular_file(dwarf_path, ec)) return dwarf_path;
    if (file_name.empty()) return "";
    const fs::path root = fs::path(NICLAB_SOURCE_DIR) / "firmware";
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec) && it->path().filename() == file_name) return it->path().string();
    return "";
}

void TraceSet::add(const fs::path& trace_file, const fs::path& elf) {
    const trace::Trace t = trace::load_trace(trace_file);
    File f{trace_file, t.header.node_id, t.has_epoch(), false, t.lost()};
    std::vector<trace::DecodedRecord> records;
    std::map<uint32_t, std::string> sources;  // by pc: each trace point's file, found once
    if (elf.empty()) {
        records = trace::decode(t, [](uint32_t) { return fw::SourceLocation{}; });
    } else {
        trace::ElfDecoding d = trace::decode_with_elf(t, elf);
        records = std::move(d.records);
        f.unreliable = d.unreliable;
        // The decoder keeps the file's name; the view needs its path (DWARF's).
        const trace::SymbolLookup lookup = trace::elf_lookup(elf);
        for (const auto& r : records)
            if (!sources.count(r.pc)) {
                const fw::SourceLocation call = lookup(r.pc - 4);
                sources[r.pc] = find_source(call.path, r.file);
            }
    }
    const size_t index = files_.size();
    files_.push_back(f);
    for (auto& r : records) {
        TraceRow row;
        row.node = f.node;
        row.file = index;
        row.t_ns = r.sim_time_ns.value_or(r.time_ns);
        row.source = sources.count(r.pc) ? sources[r.pc] : "";
        row.record = std::move(r);
        rows_.push_back(std::move(row));
    }
    std::stable_sort(rows_.begin(), rows_.end(), [](const TraceRow& a, const TraceRow& b) {
        return a.t_ns != b.t_ns ? a.t_ns < b.t_ns : a.node < b.node;
    });
}

void TraceSet::clear() {
    files_.clear();
    rows_.clear();
}

bool TraceSet::global() const {
    return !files_.empty() && std::all_of(files_.begin(), files_.end(), [](const File& f) { return f.global_time; });
}

void TraceSet::export_chrome(const fs::path& path) const {
    if (files_.empty()) throw trace::TraceError("no trace is open: nothing to export");
    // Each file's records back in their own order (the rows are merged by time, stably).
    std::vector<std::vector<trace::DecodedRecord>> per_file(files_.size());
    for (const TraceRow& r : rows_) per_file[r.file].push_back(r.record);
    std::vector<trace::ChromeTrack> tracks;
    for (size_t i = 0; i < files_.size(); ++i) tracks.push_back({files_[i].node, files_[i].global_time, &per_file[i]});
    trace::write_chrome_trace(tracks, path);
}

}  // namespace niclab::gui
