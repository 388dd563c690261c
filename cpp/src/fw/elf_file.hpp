#pragma once
// Internal to niclab_fw: an ELF file read into memory with a libelf handle over it,
// shared by FirmwareImage (validation, loading) and Symbolizer (symbols, lines).
#include <gelf.h>
#include <libelf.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace niclab::fw::detail {

struct ElfEnd {
    void operator()(Elf* elf) const noexcept { elf_end(elf); }
};
using ElfPtr = std::unique_ptr<Elf, ElfEnd>;

// The whole file is read up front: the FNV fallback build id needs every byte, and
// bounds checks against the true file size catch truncation that libelf tolerates
// (elf_memory accepts a file cut inside its section headers or segment data).
class ElfFile {
public:
    // Reads `path` and checks the identification bytes. Throws FirmwareImageError
    // with rule "not-elf", "class" (not ELFCLASS32) or "endianness" (not little).
    static ElfFile open(const std::filesystem::path& path);

    Elf* elf() const { return elf_.get(); }
    const GElf_Ehdr& header() const { return header_; }
    std::span<const uint8_t> bytes() const { return bytes_; }
    const std::filesystem::path& path() const { return path_; }

    // True if [offset, offset + size) lies inside the file (no overflow).
    bool in_file(uint64_t offset, uint64_t size) const {
        return offset <= bytes_.size() && size <= bytes_.size() - offset;
    }
    // Throws FirmwareImageError("not-elf") with "<path>: <what>".
    [[noreturn]] void fail_not_elf(const std::string& what) const;

private:
    std::filesystem::path path_;
    std::vector<uint8_t> bytes_;  // declared before elf_: the handle points into it
    ElfPtr elf_;
    GElf_Ehdr header_{};
};

// One .symtab entry worth naming: no section/file symbols, no RISC-V mapping
// symbols ("$x...") and no absolute linker constants (NICLAB_STACK_SIZE).
struct ElfSymbol {
    std::string name;
    uint32_t value = 0;
    uint32_t size = 0;
    unsigned char type = STT_NOTYPE;
    unsigned char bind = STB_LOCAL;
    // End of the allocated section holding the symbol: a symbol never names
    // an address beyond its own section.
    uint64_t section_end = 0;
};

// Reads .symtab; throws "not-elf" if the table lies beyond the end of the file.
std::vector<ElfSymbol> read_symbols(const ElfFile& file);

}  // namespace niclab::fw::detail
