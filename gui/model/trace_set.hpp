#pragma once
// Trace files of several nodes read together: every record decoded (with its
// firmware's symbols when an ELF is given, after the build-id check) and placed on one
// time axis — the global simulated time for files that carry it (version 2, epoch_ps),
// else the node's own core time. Records keep the source file they came from, so a
// view can open it at the trace point's line.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "niclab/trace/decoder.hpp"

namespace niclab::gui {

struct TraceRow {
    uint32_t node = 0;
    size_t file = 0;                // index into TraceSet::files()
    trace::DecodedRecord record;
    double t_ns = 0;                // on the set's time axis
    std::string source;             // the trace point's source file, if found here ("" if not)
};

class TraceSet {
public:
    struct File {
        std::filesystem::path path;
        uint32_t node = 0;
        bool global_time = false;   // has epoch_ps: its times are simulated time
        bool unreliable = false;    // decoded with an ELF of another build (forced)
        uint64_t lost = 0;          // records the ring overwrote
    };

    // Adds one node's trace. `elf` may be empty (no symbols). Throws TraceFormatError
    // (naming the byte offset), TraceBuildIdMismatch (naming both builds),
    // FirmwareImageError, TraceError (cannot be read): the set is unchanged then.
    void add(const std::filesystem::path& trace_file, const std::filesystem::path& elf);
    void clear();

    const std::vector<File>& files() const { return files_; }
    const std::vector<TraceRow>& rows() const { return rows_; }  // by time, then node
    // Every file is on the global simulated time axis (else times of different nodes
    // are each node's own and should not be compared).
    bool global() const;
    // Every open file as Chrome trace-event JSON for Perfetto (the core's writer,
    // trace/chrome_json.hpp, as `niclab run --perfetto` uses): one track per file.
    // Throws TraceError naming the file if it cannot be written, or when none is open.
    void export_chrome(const std::filesystem::path& path) const;

private:
    std::vector<File> files_;
    std::vector<TraceRow> rows_;
};

// Where a DWARF source path is on this machine: the path itself, else a file of the
// same name under the source tree's firmware/ (traces made on another checkout).
std::string find_source(const std::string& dwarf_path, const std::string& file_name);

}  // namespace niclab::gui
