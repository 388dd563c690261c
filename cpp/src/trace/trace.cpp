#include "niclab/trace/trace.hpp"

namespace niclab::trace {

TraceFormatError::TraceFormatError(uint64_t offset, const std::string& detail, const std::string& file)
    : TraceError(file + ": " + detail + " (at byte offset " + std::to_string(offset) + ")"),
      offset_(offset),
      detail_(detail) {}

TraceBuildIdMismatch::TraceBuildIdMismatch(std::string trace_build_id, std::string elf_build_id,
                                           const std::string& elf)
    : TraceError("the trace was recorded with firmware build id " + trace_build_id + " but " + elf +
                 " has build id " + elf_build_id + ": symbols would be wrong (decode anyway with --force / force=True)"),
      trace_(std::move(trace_build_id)),
      elf_(std::move(elf_build_id)) {}

std::vector<uint64_t> unwrap_forward(const std::vector<RawRecord>& records, uint64_t first) {
    std::vector<uint64_t> out(records.size());
    for (size_t i = 0; i < records.size(); ++i)
        out[i] = i == 0 ? first : out[i - 1] + uint32_t(records[i].timestamp - records[i - 1].timestamp);
    return out;
}

std::vector<uint64_t> unwrap_backward(const std::vector<RawRecord>& records, uint64_t now) {
    std::vector<uint64_t> out(records.size());
    uint64_t later = now;
    uint32_t later_low = uint32_t(now);
    for (size_t i = records.size(); i-- > 0;) {
        later -= uint32_t(later_low - records[i].timestamp);
        later_low = records[i].timestamp;
        out[i] = later;
    }
    return out;
}

std::vector<uint64_t> Trace::unwrapped_cycles() const {
    if (records.empty()) return {};
    uint64_t first = (header.flags & kFlagHasBase) ? header.first_cycles : records.front().timestamp;
    return unwrap_forward(records, first);
}

}  // namespace niclab::trace
