#pragma once
// Internal to niclab_fw: address -> symbol for the Symbolizer, as two sorted
// vectors so a lookup per trace record is a binary search, not a table walk.
#include <vector>

#include "elf_file.hpp"

namespace niclab::fw::detail {

class SymbolIndex {
public:
    explicit SymbolIndex(std::vector<ElfSymbol> symbols);

    // The STT_FUNC covering `address`; failing that, the nearest symbol at or below
    // it in the same section (crt0's _start has no size); nullptr outside both.
    const ElfSymbol* find(uint32_t address) const;

private:
    std::vector<ElfSymbol> functions_;  // sized STT_FUNC, one per address, by value
    std::vector<ElfSymbol> labels_;     // the best-named symbol per address, by value
};

}  // namespace niclab::fw::detail
