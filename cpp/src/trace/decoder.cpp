#include "niclab/trace/decoder.hpp"

#include <cmath>
#include <cstdio>
#include <memory>

#include "niclab/fw/build_id.hpp"
#include "niclab/fw/firmware_image.hpp"

namespace niclab::trace {

std::vector<DecodedRecord> decode(const Trace& trace, const SymbolLookup& lookup) {
    const std::vector<uint64_t> cycles = trace.unwrapped_cycles();
    std::vector<DecodedRecord> out(trace.records.size());
    for (size_t i = 0; i < out.size(); ++i) {
        const RawRecord& raw = trace.records[i];
        DecodedRecord& d = out[i];
        d.cycles = cycles[i];
        d.time_ns = trace.cycles_to_ns(cycles[i]);
        if (trace.has_epoch()) d.sim_time_ns = double(trace.sim_time_ps(cycles[i])) / 1e3;
        d.raw_timestamp = raw.timestamp;
        d.raw_word = raw.word;
        d.value = raw.value();
        d.pc = raw.pc();
        if (lookup) {
            fw::SourceLocation loc = lookup(d.pc);
            d.function = std::move(loc.function);
            d.offset = loc.offset;
            // The PC is the return address, which may already belong to the next
            // statement; the call instruction before it carries the trace point's line.
            fw::SourceLocation call = lookup(d.pc - 4);
            d.file = std::move(call.file);
            d.line = call.line;
        }
        if (i > 0) {
            const double gap = trace.cycles_to_ns(cycles[i] - cycles[i - 1]);
            d.delta_prev_ns = gap;
            out[i - 1].delta_next_ns = gap;
        }
    }
    return out;
}

std::string pc_text(uint32_t pc) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", unsigned(pc));
    return buf;
}

std::string format_where(const DecodedRecord& r) {
    if (r.function.empty()) return pc_text(r.pc);
    char buf[16];
    std::snprintf(buf, sizeof buf, "+%04x", unsigned(r.offset));
    return r.function + buf;
}

std::string format_record(const DecodedRecord& r, bool source) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%08x: %u: %08x ", unsigned(r.raw_timestamp), unsigned(r.value), unsigned(r.raw_word));
    std::string line = buf + format_where(r);
    if (r.delta_next_ns) {
        std::snprintf(buf, sizeof buf, " (%lld ns)", static_cast<long long>(std::llround(*r.delta_next_ns)));
        line += buf;
    }
    if (source && !r.file.empty()) line += " " + r.file + ":" + std::to_string(r.line);
    return line;
}

std::string format_text(const std::vector<DecodedRecord>& records, const FormatOptions& options) {
    std::vector<const DecodedRecord*> selected;
    for (const DecodedRecord& r : records) {
        if (options.function && r.function != *options.function) continue;
        if (options.value && int(r.value) != *options.value) continue;
        selected.push_back(&r);
    }
    size_t first = 0;
    if (options.last && *options.last < selected.size()) first = selected.size() - *options.last;
    std::string out;
    for (size_t i = first; i < selected.size(); ++i) out += format_record(*selected[i], options.source) + "\n";
    return out;
}

void check_build_id(const Trace& trace, const std::string& elf_build_id, const std::string& elf_name) {
    if (trace.header.build_id != elf_build_id) throw TraceBuildIdMismatch(trace.header.build_id, elf_build_id, elf_name);
}

SymbolLookup elf_lookup(const std::filesystem::path& elf) {
    auto symbolizer = std::make_shared<const fw::Symbolizer>(elf);
    return [symbolizer](uint32_t pc) { return symbolizer->lookup(pc); };
}

ElfDecoding decode_with_elf(const Trace& trace, const std::filesystem::path& elf, bool force) {
    ElfDecoding out;
    out.elf_build_id = fw::elf_build_id(elf);
    out.unreliable = out.elf_build_id != trace.header.build_id;
    if (out.unreliable && !force) check_build_id(trace, out.elf_build_id, elf.string());
    out.records = decode(trace, elf_lookup(elf));
    return out;
}

}  // namespace niclab::trace
