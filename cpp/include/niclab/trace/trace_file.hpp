#pragma once
// Trace files: the binary format of traces/FORMAT.md. Writing then reading gives back
// exactly the same Trace; a truncated or corrupt file throws TraceFormatError naming
// the byte offset.
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "niclab/trace/trace.hpp"

namespace niclab::trace {

constexpr char kFileMagic[8] = {'N', 'I', 'C', 'T', 'R', 'A', 'C', 'E'};
// Version 2 adds the global time axis (epoch_ps, period_ps) after version 1's 64-byte
// fixed header; version 1 files are still read (without a time axis).
constexpr uint16_t kFileVersion = 2;
constexpr uint32_t kFixedHeaderBytes = 80;
constexpr uint32_t kFixedHeaderBytesV1 = 64;

std::vector<uint8_t> to_bytes(const Trace& trace);
Trace from_bytes(std::span<const uint8_t> bytes);

void save_trace(const Trace& trace, const std::filesystem::path& path);
// Also throws TraceError if the file cannot be opened.
Trace load_trace(const std::filesystem::path& path);

uint32_t crc32(std::span<const uint8_t> bytes);  // zlib's CRC-32

}  // namespace niclab::trace
