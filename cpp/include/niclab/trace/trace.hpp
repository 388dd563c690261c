#pragma once
// Firmware trace records (seed 000 §3.3, firmware/sdk/include/niclab/fw/trace.h) and a
// trace: the records of one node, oldest first, with what is needed to decode them
// (core clock, SRAM base, firmware build identity).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "niclab/sim/error.hpp"

namespace niclab::trace {

// Any trace problem that is not a file format error: a firmware without tracing, a
// bad ring descriptor in SRAM.
class TraceError : public Error {
public:
    using Error::Error;
};

// A trace file that cannot be read: truncated, corrupt, or not a trace file.
// `offset` is the byte offset in the file where the problem was found; what() reads
// "<file>: <detail> (at byte offset N)".
class TraceFormatError : public TraceError {
public:
    TraceFormatError(uint64_t offset, const std::string& detail, const std::string& file = "trace file");
    uint64_t offset() const { return offset_; }
    const std::string& detail() const { return detail_; }

private:
    uint64_t offset_;
    std::string detail_;
};

// The firmware ELF offered for decoding is not the one that made the trace.
class TraceBuildIdMismatch : public TraceError {
public:
    TraceBuildIdMismatch(std::string trace_build_id, std::string elf_build_id, const std::string& elf);
    const std::string& trace_build_id() const { return trace_; }
    const std::string& elf_build_id() const { return elf_; }

private:
    std::string trace_, elf_;
};

// One eight-byte record as the firmware writes it (little-endian words):
//   word 0  timestamp: low 32 bits of mcycle (core cycles)
//   word 1  value << 24 | low 24 bits of the trace point's PC
struct RawRecord {
    uint32_t timestamp = 0;
    uint32_t word = 0;

    uint8_t value() const { return uint8_t(word >> 24); }
    uint32_t pc_bits() const { return word & 0x00FFFFFFu; }
    // The full PC: every SRAM address (both views) has 0xFF in its top byte.
    uint32_t pc() const { return 0xFF000000u | pc_bits(); }
    static RawRecord make(uint32_t timestamp, uint8_t value, uint32_t pc) {
        return {timestamp, (uint32_t(value) << 24) | (pc & 0x00FFFFFFu)};
    }
    bool operator==(const RawRecord&) const = default;
};

// Header flags (traces/FORMAT.md).
constexpr uint32_t kFlagHasBase = 1u << 0;  // first_cycles holds record 0's unwrapped 64-bit timestamp
constexpr uint32_t kFlagWrapped = 1u << 1;  // the ring wrapped: total_count > records.size()
constexpr uint32_t kFlagHasEpoch = 1u << 2; // epoch_ps and period_ps place records on the global time axis
constexpr uint32_t kKnownFlags = kFlagHasBase | kFlagWrapped | kFlagHasEpoch;

struct TraceHeader {
    uint64_t clock_hz = 500'000'000;          // core clock: cycles -> ns
    uint32_t sram_cached_base = 0xFFFA0000u;  // where text is linked (hw.h)
    uint32_t node_id = 0;
    std::string build_id;                     // fw::FirmwareImage::build_id() of the firmware
    uint64_t total_count = 0;                 // trace points the firmware executed (its count register)
    uint32_t flags = 0;
    uint64_t first_cycles = 0;                // see kFlagHasBase
    // The global time axis (kFlagHasEpoch): the simulated time, in ps, at which the
    // core's mcycle was 0, and the exact core clock period in ps. Every node's records
    // then share one axis: a record at cycle c happened at epoch_ps + c * period_ps.
    int64_t epoch_ps = 0;
    uint64_t period_ps = 0;
    bool operator==(const TraceHeader&) const = default;
};

struct Trace {
    TraceHeader header;
    std::vector<RawRecord> records;  // oldest first

    // Records written but overwritten before they were read (ring wrap).
    uint64_t lost() const { return header.total_count > records.size() ? header.total_count - records.size() : 0; }
    // 64-bit timestamps, assuming consecutive records are less than 2^32 cycles
    // apart; they start from header.first_cycles when kFlagHasBase is set,
    // otherwise from record 0's 32-bit timestamp.
    std::vector<uint64_t> unwrapped_cycles() const;
    double cycles_to_ns(uint64_t cycles) const { return double(cycles) * 1e9 / double(header.clock_hz); }
    bool has_epoch() const { return (header.flags & kFlagHasEpoch) != 0; }
    // Global simulated time (ps) of a record at unwrapped cycle `cycles`; needs has_epoch().
    int64_t sim_time_ps(uint64_t cycles) const { return header.epoch_ps + int64_t(cycles * header.period_ps); }
    bool operator==(const Trace&) const = default;
};

// Unwraps 32-bit timestamps into 64 bits from a known 64-bit value of the first.
std::vector<uint64_t> unwrap_forward(const std::vector<RawRecord>& records, uint64_t first);
// ... from the 64-bit counter value `now` read after the last record was written.
std::vector<uint64_t> unwrap_backward(const std::vector<RawRecord>& records, uint64_t now);

}  // namespace niclab::trace
