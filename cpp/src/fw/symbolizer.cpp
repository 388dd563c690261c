// Symbolizer: joins the ELF symbol table (function+offset) and the DWARF line table
// (file:line) for one firmware image, both read once into sorted vectors.
#include "niclab/fw/symbolizer.hpp"

#include <cstdio>

#include "elf_file.hpp"
#include "line_table.hpp"
#include "symbol_index.hpp"

namespace niclab::fw {

struct Symbolizer::Impl {
    detail::SymbolIndex symbols;
    detail::LineTable lines;
    SramLayout sram;

    SourceLocation direct(uint32_t address) const {
        SourceLocation loc;
        if (const detail::ElfSymbol* s = symbols.find(address)) {
            loc.function = s->name;
            loc.offset = address - s->value;
        }
        if (detail::LineTable::Hit hit; lines.find(address, hit)) {
            loc.path = *hit.path;
            loc.file = std::filesystem::path(loc.path).filename().string();
            loc.line = hit.line;
        }
        return loc;
    }
};


Symbolizer::Symbolizer(const std::filesystem::path& elf, const SramLayout& sram) {
    const detail::ElfFile file = detail::ElfFile::open(elf);
    impl_ = std::make_unique<Impl>(Impl{detail::SymbolIndex(detail::read_symbols(file)),
                                        detail::LineTable::read(file.elf()), sram});
}

Symbolizer::~Symbolizer() = default;
Symbolizer::Symbolizer(Symbolizer&&) noexcept = default;
Symbolizer& Symbolizer::operator=(Symbolizer&&) noexcept = default;

SourceLocation Symbolizer::lookup(uint32_t address) const {
    SourceLocation loc = impl_->direct(address);
    const SramLayout& sram = impl_->sram;
    const bool uncached = address >= sram.uncached_base && address - sram.uncached_base < sram.size;
    if (loc.function.empty() && loc.file.empty() && uncached)
        loc = impl_->direct(address - sram.uncached_base + sram.cached_base);
    return loc;
}

std::string SourceLocation::to_string(uint32_t address) const {
    char buf[32];
    std::string out;
    if (!function.empty()) {
        std::snprintf(buf, sizeof buf, "+0x%x", static_cast<unsigned>(offset));
        out = function + buf;
    } else {
        std::snprintf(buf, sizeof buf, "0x%08x", static_cast<unsigned>(address));
        out = buf;
    }
    if (!file.empty()) out += " (" + file + ":" + std::to_string(line) + ")";
    return out;
}

}  // namespace niclab::fw
