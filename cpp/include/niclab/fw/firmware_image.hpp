#pragma once
// A firmware image: an RV32 ELF linked for the NIC's SRAM (firmware/sdk/link.ld),
// loaded with elfutils' libelf and validated before it may touch a NIC.
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "niclab/sim/error.hpp"

namespace niclab::fw {

// A bad image. `rule` names the validation rule that failed (e.g. "machine",
// "segment-outside-sram"); the message says which segment/offset and why.
class FirmwareImageError : public Error {
public:
    FirmwareImageError(std::string rule, const std::string& message)
        : Error(message), rule_(std::move(rule)) {}
    const std::string& rule() const { return rule_; }

private:
    std::string rule_;
};

// One PT_LOAD segment, already translated to an SRAM offset.
struct Segment {
    unsigned index = 0;        // program header index, as error messages and readelf -l name it
    uint32_t vaddr = 0;        // link address (cached or uncached SRAM view)
    uint32_t sram_offset = 0;  // where it lands in SRAM
    uint32_t mem_size = 0;     // bytes occupied in SRAM; beyond bytes.size() is zero-fill (.bss)
    bool executable = false;
    std::vector<uint8_t> bytes;  // file contents (p_filesz bytes)
};

struct SramLayout {
    uint32_t size;
    uint32_t cached_base;
    uint32_t uncached_base;
};
SramLayout default_sram_layout();  // from firmware/sdk/include/niclab/fw/hw.h

class FirmwareImage {
public:
    // Reads and validates; throws FirmwareImageError naming the broken rule:
    // "not-elf" (unreadable, not ELF, truncated), "class", "endianness", "machine",
    // "type", "no-segments", "filesz-gt-memsz", "too-large", "segment-outside-sram",
    // "segment-overlap" (physical, across both SRAM views), "entry-not-in-text".
    static FirmwareImage load(const std::filesystem::path& path,
                              const SramLayout& sram = default_sram_layout());

    const std::filesystem::path& path() const { return path_; }
    uint32_t entry() const { return entry_; }
    const std::vector<Segment>& segments() const { return segments_; }
    uint32_t sram_bytes_used() const;   // sum of mem_size of all segments
    // Build identity: the GNU build-id note as hex if present, otherwise a hash of
    // the whole file (hex). Two different ELFs never share it in practice.
    const std::string& build_id() const { return build_id_; }
    // Address of a symbol by name (from .symtab), if present. When a local and a
    // global share the name, the global wins.
    bool find_symbol(const std::string& name, uint32_t& address) const;

private:
    std::filesystem::path path_;
    uint32_t entry_ = 0;
    std::vector<Segment> segments_;
    std::string build_id_;
    std::vector<std::pair<std::string, uint32_t>> symbols_;  // sorted by name for find_symbol
};

}  // namespace niclab::fw
