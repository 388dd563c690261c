#pragma once
// Internal to niclab_fw: the DWARF line tables of every compilation unit, flattened
// into one address-sorted vector so address -> file:line is a binary search.
#include <libelf.h>

#include <cstdint>
#include <string>
#include <vector>

namespace niclab::fw::detail {

class LineTable {
public:
    // Reads .debug_line through libdw. An image without DWARF (or with DWARF libdw
    // cannot read) gives an empty table: symbols alone still make useful messages.
    static LineTable read(Elf* elf);

    struct Hit {
        const std::string* path;  // as recorded in DWARF (absolute when comp_dir is known)
        int line;
    };
    // The row covering `address`, if any sequence covers it with a non-zero line.
    bool find(uint32_t address, Hit& hit) const;
    bool empty() const { return rows_.empty(); }

private:
    struct Row {
        uint32_t address;
        uint32_t file;  // index into files_
        int line;
        bool end_sequence;  // first address after a sequence: nothing is known from here
    };
    std::vector<std::string> files_;
    std::vector<Row> rows_;
};

}  // namespace niclab::fw::detail
