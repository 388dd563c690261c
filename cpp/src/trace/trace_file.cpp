// The trace file format (traces/FORMAT.md). Little-endian throughout; every field is
// checked on reading, and the error names the byte offset of what is wrong.
#include "niclab/trace/trace_file.hpp"

#include <cstring>
#include <fstream>
#include <iterator>

#include <isa-l/crc.h>

namespace niclab::trace {

namespace {

// Field offsets in the fixed header (64 bytes in version 1, 80 in version 2).
constexpr size_t kOffMagic = 0, kOffVersion = 8, kOffHeaderBytes = 10, kOffFlags = 12, kOffClock = 16,
                 kOffSramBase = 24, kOffNode = 28, kOffTotal = 32, kOffCount = 40, kOffFirst = 48,
                 kOffBuildIdLen = 56, kOffReserved = 58, kOffEpoch = 64, kOffPeriod = 72;
constexpr size_t kRecordBytes = 8;
constexpr size_t kCrcBytes = 4;
constexpr size_t kMaxBuildId = 1024;

size_t pad8(size_t n) { return (n + 7) & ~size_t(7); }

template <typename T> void put(std::vector<uint8_t>& out, size_t at, T v) {
    for (size_t i = 0; i < sizeof(T); ++i) out[at + i] = uint8_t(uint64_t(v) >> (8 * i));
}
template <typename T> T get(std::span<const uint8_t> in, size_t at) {
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(in[at + i]) << (8 * i);
    return T(v);
}

[[noreturn]] void truncated(size_t size, const std::string& what) {
    throw TraceFormatError(size, "truncated: the file ends at byte " + std::to_string(size) + " inside " + what);
}

}  // namespace

uint32_t crc32(std::span<const uint8_t> bytes) { return crc32_gzip_refl(0, bytes.data(), bytes.size()); }

std::vector<uint8_t> to_bytes(const Trace& trace) {
    const TraceHeader& h = trace.header;
    if (h.build_id.size() > kMaxBuildId) throw TraceError("trace build id longer than 1024 bytes");
    const size_t header_bytes = kFixedHeaderBytes + pad8(h.build_id.size());
    std::vector<uint8_t> out(header_bytes + trace.records.size() * kRecordBytes + kCrcBytes, 0);
    std::memcpy(out.data() + kOffMagic, kFileMagic, sizeof kFileMagic);
    put<uint16_t>(out, kOffVersion, kFileVersion);
    put<uint16_t>(out, kOffHeaderBytes, uint16_t(header_bytes));
    put<uint32_t>(out, kOffFlags, h.flags);
    put<uint64_t>(out, kOffClock, h.clock_hz);
    put<uint32_t>(out, kOffSramBase, h.sram_cached_base);
    put<uint32_t>(out, kOffNode, h.node_id);
    put<uint64_t>(out, kOffTotal, h.total_count);
    put<uint64_t>(out, kOffCount, uint64_t(trace.records.size()));
    put<uint64_t>(out, kOffFirst, h.first_cycles);
    put<uint16_t>(out, kOffBuildIdLen, uint16_t(h.build_id.size()));
    put<int64_t>(out, kOffEpoch, h.epoch_ps);
    put<uint64_t>(out, kOffPeriod, h.period_ps);
    std::memcpy(out.data() + kFixedHeaderBytes, h.build_id.data(), h.build_id.size());
    size_t at = header_bytes;
    for (const RawRecord& r : trace.records) {
        put<uint32_t>(out, at, r.timestamp);
        put<uint32_t>(out, at + 4, r.word);
        at += kRecordBytes;
    }
    put<uint32_t>(out, at, crc32({out.data(), at}));
    return out;
}

Trace from_bytes(std::span<const uint8_t> in) {
    const size_t size = in.size();
    if (size < sizeof kFileMagic) truncated(size, "the magic number (8 bytes)");
    for (size_t i = 0; i < sizeof kFileMagic; ++i)
        if (in[i] != uint8_t(kFileMagic[i]))
            throw TraceFormatError(i, "not a niclab trace file: bad magic number, expected \"NICTRACE\"");
    if (size < kFixedHeaderBytesV1) truncated(size, "the 64-byte header");

    const auto version = get<uint16_t>(in, kOffVersion);
    if (version != 1 && version != kFileVersion)
        throw TraceFormatError(kOffVersion, "version " + std::to_string(version) + " is not supported (this reader knows 1 and " +
                                                std::to_string(kFileVersion) + ")");
    const size_t fixed = version == 1 ? kFixedHeaderBytesV1 : kFixedHeaderBytes;
    if (size < fixed) truncated(size, "the " + std::to_string(fixed) + "-byte header");
    Trace t;
    TraceHeader& h = t.header;
    const auto header_bytes = get<uint16_t>(in, kOffHeaderBytes);
    const auto id_len = get<uint16_t>(in, kOffBuildIdLen);
    if (id_len > kMaxBuildId)
        throw TraceFormatError(kOffBuildIdLen, "build id length " + std::to_string(id_len) + " exceeds 1024");
    if (header_bytes != fixed + pad8(id_len))
        throw TraceFormatError(kOffHeaderBytes, "header size " + std::to_string(header_bytes) + " does not match build id length " +
                                                    std::to_string(id_len) + " (expected " +
                                                    std::to_string(fixed + pad8(id_len)) + ")");
    h.flags = get<uint32_t>(in, kOffFlags);
    if (h.flags & ~kKnownFlags) throw TraceFormatError(kOffFlags, "unknown flag bits in flags " + std::to_string(h.flags));
    h.clock_hz = get<uint64_t>(in, kOffClock);
    if (h.clock_hz == 0) throw TraceFormatError(kOffClock, "core clock is 0 Hz");
    h.sram_cached_base = get<uint32_t>(in, kOffSramBase);
    h.node_id = get<uint32_t>(in, kOffNode);
    h.total_count = get<uint64_t>(in, kOffTotal);
    const auto count = get<uint64_t>(in, kOffCount);
    h.first_cycles = get<uint64_t>(in, kOffFirst);
    for (size_t i = kOffReserved; i < kOffEpoch; ++i)
        if (in[i] != 0) throw TraceFormatError(i, "reserved header byte is not zero");
    if (version == 1 && (h.flags & kFlagHasEpoch))
        throw TraceFormatError(kOffFlags, "a version 1 file cannot have the epoch flag (its header has no epoch)");
    if (version > 1) {
        h.epoch_ps = get<int64_t>(in, kOffEpoch);
        h.period_ps = get<uint64_t>(in, kOffPeriod);
        if ((h.flags & kFlagHasEpoch) ? h.period_ps == 0 : (h.epoch_ps != 0 || h.period_ps != 0))
            throw TraceFormatError(kOffPeriod, (h.flags & kFlagHasEpoch) ? "core clock period is 0 ps"
                                                                          : "epoch and period must be 0 without the epoch flag");
    }

    if (size < header_bytes) truncated(size, "the build id (header of " + std::to_string(header_bytes) + " bytes)");
    for (size_t i = fixed; i < header_bytes; ++i) {
        const uint8_t c = in[i];
        if (i < fixed + id_len ? (c < 0x21 || c > 0x7E) : c != 0)
            throw TraceFormatError(i, i < fixed + id_len ? "build id byte is not printable ASCII"
                                                                     : "build id padding byte is not zero");
    }
    h.build_id.assign(reinterpret_cast<const char*>(in.data() + fixed), id_len);

    const size_t records_room = (size - header_bytes) / kRecordBytes;  // no overflow for a huge count
    if (count > records_room || size < header_bytes + count * kRecordBytes + kCrcBytes)
        truncated(size, "the records or the checksum (the header says " + std::to_string(count) + " records, which need " +
                            std::to_string(header_bytes) + " + " + std::to_string(count) + " x 8 + 4 bytes)");
    const size_t crc_at = header_bytes + count * kRecordBytes;
    if (size > crc_at + kCrcBytes)
        throw TraceFormatError(crc_at + kCrcBytes, std::to_string(size - crc_at - kCrcBytes) +
                                                       " unexpected bytes after the checksum");
    const uint32_t stored = get<uint32_t>(in, crc_at), computed = crc32(in.first(crc_at));
    if (stored != computed)
        throw TraceFormatError(crc_at, "corrupt: CRC-32 of bytes 0.." + std::to_string(crc_at) + " does not match the stored checksum");

    t.records.resize(count);
    for (size_t i = 0; i < count; ++i)
        t.records[i] = {get<uint32_t>(in, header_bytes + i * kRecordBytes), get<uint32_t>(in, header_bytes + i * kRecordBytes + 4)};

    if (h.total_count < count)
        throw TraceFormatError(kOffTotal, "total count " + std::to_string(h.total_count) + " is less than the " +
                                              std::to_string(count) + " records in the file");
    if (bool(h.flags & kFlagWrapped) != (h.total_count > count))
        throw TraceFormatError(kOffFlags, "the wrapped flag disagrees with total count and record count");
    if ((h.flags & kFlagHasBase) && (count == 0 || uint32_t(h.first_cycles) != t.records[0].timestamp))
        throw TraceFormatError(kOffFirst, "first_cycles does not match the first record's timestamp");
    return t;
}

void save_trace(const Trace& trace, const std::filesystem::path& path) {
    const std::vector<uint8_t> bytes = to_bytes(trace);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw TraceError("cannot write trace file " + path.string());
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!out) throw TraceError("cannot write trace file " + path.string());
}

Trace load_trace(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw TraceError("cannot open trace file " + path.string());
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    try {
        return from_bytes(bytes);
    } catch (const TraceFormatError& e) {
        throw TraceFormatError(e.offset(), e.detail(), path.string());
    }
}

}  // namespace niclab::trace
