#pragma once
// Decoding and the tracedump text format of seed 000 Figure 2:
//
//   e4681e8b: 24: 18ff0c4c mainloop+0014 (178 ns)
//
// timestamp (8 hex digits), value (decimal), raw word 1 (8 hex digits),
// function+offset (offset in 4 hex digits), and in parentheses the time from this
// record to the NEXT one. Figure 2 shows this: its first line's 178 ns is
// e4681ee4 - e4681e8b = 89 cycles at 500 MHz, the gap to the second line. (The
// seed's prose says "to the previous trace point"; the figure is the specification
// here.) The last record has nothing after it and shows no delta. DecodedRecord has
// both deltas.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "niclab/fw/symbolizer.hpp"
#include "niclab/trace/trace.hpp"

namespace niclab::trace {

// Address -> function+offset and file:line. fw::Symbolizer::lookup in real use; tests
// give a table.
using SymbolLookup = std::function<fw::SourceLocation(uint32_t pc)>;

struct DecodedRecord {
    uint64_t cycles = 0;     // unwrapped timestamp, core cycles
    double time_ns = 0;      // cycles at the trace's clock: the node's core time since mcycle was 0
    std::optional<double> sim_time_ns;  // global simulated time, ns (traces with an epoch)
    uint32_t raw_timestamp = 0;
    uint32_t raw_word = 0;
    uint8_t value = 0;
    uint32_t pc = 0;         // 0xFF000000 | 24 bits
    std::string function;    // empty if no symbol covers pc
    uint32_t offset = 0;
    std::string file;        // source of the call instruction (pc - 4): the trace point's line
    int line = 0;
    std::optional<double> delta_next_ns;  // to the next record (what the text shows)
    std::optional<double> delta_prev_ns;  // from the previous record
};

std::vector<DecodedRecord> decode(const Trace& trace, const SymbolLookup& lookup);

struct FormatOptions {
    bool source = false;                  // append " file:line"
    std::optional<std::string> function;  // only records in this function
    std::optional<int> value;             // only records with this value
    std::optional<size_t> last;           // only the last N records (after the filters)
};

// Where a record was traced: "mainloop+0014" (offset in 4 hex digits), or the full PC
// ("0xffff0c4c") when no symbol covers it; pc_text is that PC form of any address.
std::string format_where(const DecodedRecord& r);
std::string pc_text(uint32_t pc);

// One line, no newline: "e4681e8b: 24: 18ff0c4c mainloop+0014 (178 ns)". A record
// without symbol shows its full PC ("0xffff0c4c") in place of function+offset.
std::string format_record(const DecodedRecord& r, bool source = false);
// Every selected record, one line each. Deltas are those of the whole trace
// (to the next record recorded, whether or not it is shown).
std::string format_text(const std::vector<DecodedRecord>& records, const FormatOptions& options = {});

// Throws TraceBuildIdMismatch naming both build ids unless they are equal.
void check_build_id(const Trace& trace, const std::string& elf_build_id, const std::string& elf_name);

// A lookup through fw::Symbolizer for `elf` (kept alive by the returned function).
SymbolLookup elf_lookup(const std::filesystem::path& elf);

// Decodes with the symbols of `elf` after checking its build id against the trace's:
// a mismatch throws TraceBuildIdMismatch unless `force`, in which case the result is
// marked unreliable. A bad ELF throws fw::FirmwareImageError.
struct ElfDecoding {
    std::vector<DecodedRecord> records;
    std::string elf_build_id;
    bool unreliable = false;  // decoded with an ELF of another build (force)
};
ElfDecoding decode_with_elf(const Trace& trace, const std::filesystem::path& elf, bool force = false);

}  // namespace niclab::trace
