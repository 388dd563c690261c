#pragma once
// Address -> function+offset and file:line for a firmware ELF, through libdw
// (DWARF line tables) and the ELF symbol table. Used by FirmwareFault messages,
// the trace decoder and the GUI.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "niclab/fw/firmware_image.hpp"

namespace niclab::fw {

struct SourceLocation {
    std::string function;   // empty if no symbol covers the address
    uint32_t offset = 0;    // address - function start
    std::string file;       // basename of `path`; empty if no line info
    std::string path;       // source path as DWARF records it (absolute when known)
    int line = 0;
    // "mainloop+0x14 (main.c:42)", "mainloop+0x14" without line info,
    // or "0xfffb0010" when nothing is known.
    std::string to_string(uint32_t address) const;
};

// Immutable after construction, so lookup is safe from several threads. Each lookup
// is two binary searches over tables built once, cheap enough per trace record.
class Symbolizer {
public:
    // Throws FirmwareImageError ("not-elf", "class", "endianness") if `elf` cannot be
    // read as an ELF32 little-endian file. Missing DWARF is not an error: lookups then
    // give function+offset only. `sram` says which addresses alias which (hw.h).
    explicit Symbolizer(const std::filesystem::path& elf, const SramLayout& sram = default_sram_layout());
    ~Symbolizer();
    Symbolizer(Symbolizer&&) noexcept;
    Symbolizer& operator=(Symbolizer&&) noexcept;

    // An address in the uncached SRAM view that names nothing is retried at its
    // cached alias, where text is linked: the core may fetch through either view.
    SourceLocation lookup(uint32_t address) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace niclab::fw
