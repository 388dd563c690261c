#include "line_table.hpp"

#include <elfutils/libdw.h>
#include <gelf.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

namespace niclab::fw::detail {
namespace {

struct DwarfEnd {
    void operator()(Dwarf* dw) const noexcept { dwarf_end(dw); }
};

// Address ranges of the allocated sections. The linker leaves the line programs of
// sections it discarded (--gc-sections) in .debug_line with their addresses set to a
// tombstone (0 with GNU ld, -1 with others): rows outside every allocated section
// are such leftovers and would otherwise claim host-memory addresses near 0.
struct Range {
    uint64_t begin, end;
};
std::vector<Range> allocated_ranges(Elf* elf) {
    std::vector<Range> ranges;
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn != nullptr; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) != nullptr && (sh.sh_flags & SHF_ALLOC) && sh.sh_size > 0)
            ranges.push_back({sh.sh_addr, sh.sh_addr + sh.sh_size});
    }
    return ranges;
}

bool in_image(const std::vector<Range>& ranges, uint64_t addr, bool end_sequence) {
    for (const Range& r : ranges) {
        // An end marker sits one past its sequence's last byte: at most the section end.
        if (addr >= r.begin && (addr < r.end || (end_sequence && addr == r.end))) return true;
    }
    return false;
}

}  // namespace

LineTable LineTable::read(Elf* elf) {
    LineTable table;
    // dwarf_begin_elf reads the sections of an ET_EXEC as they are: no relocation,
    // no ebl backend, so a 32-bit RISC-V file is as good as a native one.
    std::unique_ptr<Dwarf, DwarfEnd> dw(dwarf_begin_elf(elf, DWARF_C_READ, nullptr));
    if (!dw) return table;

    const std::vector<Range> ranges = allocated_ranges(elf);
    std::unordered_map<std::string, uint32_t> file_index;
    Dwarf_CU* cu = nullptr;
    Dwarf_Die cudie;
    uint8_t unit_type = 0;
    while (dwarf_get_units(dw.get(), cu, &cu, nullptr, &unit_type, &cudie, nullptr) == 0) {
        Dwarf_Lines* lines = nullptr;
        size_t count = 0;
        if (dwarf_getsrclines(&cudie, &lines, &count) != 0) continue;  // a unit without lines
        for (size_t i = 0; i < count; ++i) {
            Dwarf_Line* line = dwarf_onesrcline(lines, i);
            Dwarf_Addr addr = 0;
            int lineno = 0;
            bool end = false;
            if (line == nullptr || dwarf_lineaddr(line, &addr) != 0 || dwarf_lineno(line, &lineno) != 0 ||
                dwarf_lineendsequence(line, &end) != 0)
                continue;
            if (!in_image(ranges, addr, end)) continue;
            const char* src = dwarf_linesrc(line, nullptr, nullptr);
            auto [it, added] = file_index.try_emplace(src ? src : "", static_cast<uint32_t>(table.files_.size()));
            if (added) table.files_.push_back(it->first);
            table.rows_.push_back(Row{static_cast<uint32_t>(addr), it->second, lineno, end});
        }
    }
    // At an address where one sequence ends and another begins, the end marker sorts
    // first so the beginning row wins the lookup. Stable: same-address rows keep
    // program order, and the last of them is the one in effect.
    std::stable_sort(table.rows_.begin(), table.rows_.end(), [](const Row& a, const Row& b) {
        return a.address != b.address ? a.address < b.address : a.end_sequence > b.end_sequence;
    });
    return table;
}

bool LineTable::find(uint32_t address, Hit& hit) const {
    auto it = std::upper_bound(rows_.begin(), rows_.end(), address,
                               [](uint32_t a, const Row& r) { return a < r.address; });
    if (it == rows_.begin()) return false;
    const Row& row = *std::prev(it);
    if (row.end_sequence || row.line <= 0) return false;
    hit = Hit{&files_[row.file], row.line};
    return true;
}

}  // namespace niclab::fw::detail
