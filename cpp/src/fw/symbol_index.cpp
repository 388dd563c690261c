#include "symbol_index.hpp"

#include <algorithm>
#include <string_view>
#include <tuple>

namespace niclab::fw::detail {
namespace {

// Several names often share an address (_start and the linker's __text_start, a
// function and its weak alias). Prefer what a person would call the code:
// functions over data over labels, global over local, fewer leading underscores.
auto rank(const ElfSymbol& s) {
    const int type = s.type == STT_FUNC ? 0 : s.type == STT_OBJECT ? 1 : 2;
    const int bind = s.bind == STB_GLOBAL ? 0 : s.bind == STB_WEAK ? 1 : 2;
    const auto underscores = s.name.find_first_not_of('_');
    return std::make_tuple(type, bind, underscores, std::string_view(s.name));
}

// Sorted by address, keeping only the best-ranked symbol at each address.
std::vector<ElfSymbol> best_per_address(std::vector<ElfSymbol> symbols) {
    std::sort(symbols.begin(), symbols.end(), [](const ElfSymbol& a, const ElfSymbol& b) {
        return a.value != b.value ? a.value < b.value : rank(a) < rank(b);
    });
    auto last = std::unique(symbols.begin(), symbols.end(),
                            [](const ElfSymbol& a, const ElfSymbol& b) { return a.value == b.value; });
    symbols.erase(last, symbols.end());
    return symbols;
}

// The last entry with value <= address, or nullptr.
const ElfSymbol* at_or_below(const std::vector<ElfSymbol>& sorted, uint32_t address) {
    auto it = std::upper_bound(sorted.begin(), sorted.end(), address,
                               [](uint32_t a, const ElfSymbol& s) { return a < s.value; });
    return it == sorted.begin() ? nullptr : &*std::prev(it);
}

}  // namespace

SymbolIndex::SymbolIndex(std::vector<ElfSymbol> symbols) {
    std::vector<ElfSymbol> functions;
    for (const ElfSymbol& s : symbols)
        if (s.type == STT_FUNC && s.size > 0) functions.push_back(s);
    functions_ = best_per_address(std::move(functions));
    labels_ = best_per_address(std::move(symbols));
}

const ElfSymbol* SymbolIndex::find(uint32_t address) const {
    if (const ElfSymbol* f = at_or_below(functions_, address); f && address - f->value < f->size) return f;
    if (const ElfSymbol* s = at_or_below(labels_, address); s && address < s->section_end) return s;
    return nullptr;
}

}  // namespace niclab::fw::detail
