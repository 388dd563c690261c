// FirmwareImage::load: reads an RV32 ELF with libelf and refuses, with a message that
// names the segment and the limit, anything the NIC loader could not place in SRAM.
#include "niclab/fw/firmware_image.hpp"

#include "niclab/fw/build_id.hpp"

#include <elfutils/libdwelf.h>

#include <algorithm>
#include <cstdio>
#include <optional>

#include "elf_file.hpp"
#include "niclab/fw/hw.h"

namespace niclab::fw {
namespace {

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// snprintf, not "[" + std::string: GCC 12 at -O3 reports a false -Wrestrict there.
std::string range(uint64_t begin, uint64_t end) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "[0x%llx, 0x%llx)", static_cast<unsigned long long>(begin),
                  static_cast<unsigned long long>(end));
    return buf;
}

// A PT_LOAD segment that occupies memory, with its header index for messages.
struct Load {
    unsigned index;
    GElf_Phdr ph;
    std::string name() const {
        return "segment " + std::to_string(index) + " " + range(ph.p_vaddr, ph.p_vaddr + ph.p_memsz);
    }
};

// Where [vaddr, vaddr + size) lands in SRAM, if it fits entirely in one view.
// 64-bit arithmetic: the cached view ends at 2^32.
std::optional<uint32_t> sram_offset(uint64_t vaddr, uint64_t size, const SramLayout& sram) {
    for (uint64_t base : {uint64_t{sram.cached_base}, uint64_t{sram.uncached_base}}) {
        if (vaddr >= base && vaddr + size <= base + sram.size) return static_cast<uint32_t>(vaddr - base);
    }
    return std::nullopt;
}

std::vector<Load> read_loads(const detail::ElfFile& file) {
    const GElf_Ehdr& eh = file.header();
    // e_phnum as written, not elf_getphdrnum: libelf silently clamps the count to
    // what the file holds, which would turn a truncated table into a short one.
    size_t phnum = eh.e_phnum;
    if (phnum == PN_XNUM && elf_getphdrnum(file.elf(), &phnum) != 0)
        file.fail_not_elf(std::string("unreadable program header count: ") + elf_errmsg(-1));
    if (phnum != 0 && eh.e_phentsize != sizeof(Elf32_Phdr))
        file.fail_not_elf("program header entries are " + std::to_string(eh.e_phentsize) + " bytes, expected " +
                          std::to_string(sizeof(Elf32_Phdr)));
    if (!file.in_file(eh.e_phoff, uint64_t{phnum} * eh.e_phentsize))
        file.fail_not_elf("truncated: program header table at file offset " + std::to_string(eh.e_phoff) + " (" +
                          std::to_string(phnum) + " entries) extends beyond the end of the file (" +
                          std::to_string(file.bytes().size()) + " bytes)");

    std::vector<Load> loads;
    for (size_t i = 0; i < phnum; ++i) {
        GElf_Phdr ph;
        if (gelf_getphdr(file.elf(), static_cast<int>(i), &ph) == nullptr)
            file.fail_not_elf("unreadable program header " + std::to_string(i) + ": " + elf_errmsg(-1));
        if (ph.p_type != PT_LOAD || (ph.p_memsz == 0 && ph.p_filesz == 0)) continue;  // nothing to place
        Load load{static_cast<unsigned>(i), ph};
        if (!file.in_file(ph.p_offset, ph.p_filesz))
            file.fail_not_elf("truncated: " + load.name() + " has file data at offsets " +
                              range(ph.p_offset, ph.p_offset + ph.p_filesz) + " beyond the end of the file (" +
                              std::to_string(file.bytes().size()) + " bytes)");
        loads.push_back(load);
    }
    return loads;
}

// Each check throws on the first violation; they run from the most to the least
// fundamental so an image broken several ways reports its root problem.
void check_sizes(const std::string& where, const std::vector<Load>& loads, const SramLayout& sram) {
    uint64_t total = 0;
    for (const Load& l : loads) {
        if (l.ph.p_filesz > l.ph.p_memsz)
            throw FirmwareImageError("filesz-gt-memsz", where + l.name() + ": p_filesz " + std::to_string(l.ph.p_filesz) +
                                                            " exceeds p_memsz " + std::to_string(l.ph.p_memsz));
        total += l.ph.p_memsz;
        if (total > sram.size)
            throw FirmwareImageError("too-large", where + l.name() + " needs " + std::to_string(l.ph.p_memsz) +
                                                      " bytes and brings the image to " + std::to_string(total) +
                                                      " bytes, more than the " + std::to_string(sram.size) +
                                                      "-byte SRAM");
    }
}

void check_placement(const std::string& where, const std::vector<Load>& loads, const SramLayout& sram) {
    struct Placed {
        uint64_t begin, end;
        const Load* load;
    };
    std::vector<Placed> placed;
    for (const Load& l : loads) {
        auto off = sram_offset(l.ph.p_vaddr, l.ph.p_memsz, sram);
        if (!off)
            throw FirmwareImageError(
                "segment-outside-sram",
                where + l.name() + " is not inside SRAM: it must lie entirely in the cached view " +
                    range(sram.cached_base, uint64_t{sram.cached_base} + sram.size) + " or the uncached view " +
                    range(sram.uncached_base, uint64_t{sram.uncached_base} + sram.size));
        placed.push_back({*off, *off + l.ph.p_memsz, &l});
    }
    // Compare SRAM offsets, not addresses: the two views alias the same bytes.
    std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.begin < b.begin; });
    for (size_t i = 1; i < placed.size(); ++i) {
        const Placed& a = placed[i - 1];
        const Placed& b = placed[i];
        if (b.begin < a.end)
            throw FirmwareImageError("segment-overlap", where + a.load->name() + " and " + b.load->name() +
                                                            " overlap in SRAM at offsets " +
                                                            range(b.begin, std::min(a.end, b.end)));
    }
}

void check_entry(const std::string& where, uint64_t entry, const std::vector<Load>& loads) {
    std::string text;
    for (const Load& l : loads) {
        if (!(l.ph.p_flags & PF_X)) continue;
        // Within p_filesz: an entry point in the zero-filled tail would run zeros.
        if (entry >= l.ph.p_vaddr && entry < l.ph.p_vaddr + l.ph.p_filesz) return;
        text += (text.empty() ? "" : ", ") + l.name();
    }
    throw FirmwareImageError("entry-not-in-text", where + "entry point " + hex(entry) +
                                                      " is not inside the file data of an executable PT_LOAD segment (" +
                                                      (text.empty() ? std::string("there is none") : text) + ")");
}

// FNV-1a 64: a stable identity for images linked without --build-id.
std::string fnv1a(std::span<const uint8_t> bytes) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint8_t b : bytes) {
        h ^= b;
        h *= 0x100000001b3ull;
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, "fnv:%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::string build_id_of(const detail::ElfFile& file) {
    const void* id = nullptr;
    ssize_t len = dwelf_elf_gnu_build_id(file.elf(), &id);
    if (len <= 0 || id == nullptr) return fnv1a(file.bytes());
    std::string out;
    static const char digits[] = "0123456789abcdef";
    for (const uint8_t b : std::span(static_cast<const uint8_t*>(id), static_cast<size_t>(len))) {
        out += digits[b >> 4];
        out += digits[b & 0xf];
    }
    return out;
}

}  // namespace

std::string elf_build_id(const std::filesystem::path& path) { return build_id_of(detail::ElfFile::open(path)); }

SramLayout default_sram_layout() {
    return SramLayout{NICLAB_SRAM_SIZE, NICLAB_SRAM_CACHED_BASE, NICLAB_SRAM_UNCACHED_BASE};
}

FirmwareImage FirmwareImage::load(const std::filesystem::path& path, const SramLayout& sram) {
    const detail::ElfFile file = detail::ElfFile::open(path);
    const std::string where = path.string() + ": ";
    const GElf_Ehdr& eh = file.header();
    if (eh.e_machine != EM_RISCV)
        throw FirmwareImageError("machine", where + "e_machine " + std::to_string(eh.e_machine) +
                                                ", the NIC core needs EM_RISCV (" + std::to_string(EM_RISCV) + ")");
    if (eh.e_type != ET_EXEC)
        throw FirmwareImageError("type", where + "e_type " + std::to_string(eh.e_type) +
                                             ", firmware must be a linked executable (ET_EXEC, " +
                                             std::to_string(ET_EXEC) + ")");

    const std::vector<Load> loads = read_loads(file);
    if (loads.empty()) throw FirmwareImageError("no-segments", where + "no PT_LOAD segment: nothing to load");
    check_sizes(where, loads, sram);
    check_placement(where, loads, sram);
    check_entry(where, eh.e_entry, loads);

    FirmwareImage image;
    image.path_ = path;
    image.entry_ = static_cast<uint32_t>(eh.e_entry);
    for (const Load& l : loads) {
        auto bytes = file.bytes().subspan(l.ph.p_offset, l.ph.p_filesz);
        image.segments_.push_back(Segment{l.index, static_cast<uint32_t>(l.ph.p_vaddr),
                                          *sram_offset(l.ph.p_vaddr, l.ph.p_memsz, sram),
                                          static_cast<uint32_t>(l.ph.p_memsz), (l.ph.p_flags & PF_X) != 0,
                                          std::vector<uint8_t>(bytes.begin(), bytes.end())});
    }
    image.build_id_ = build_id_of(file);

    std::vector<detail::ElfSymbol> symbols = detail::read_symbols(file);
    // Globals first among equal names, so a stable sort then lower_bound finds them.
    std::stable_sort(symbols.begin(), symbols.end(), [](const auto& a, const auto& b) {
        if (a.name != b.name) return a.name < b.name;
        return a.bind != STB_LOCAL && b.bind == STB_LOCAL;
    });
    for (auto& s : symbols) image.symbols_.emplace_back(std::move(s.name), s.value);
    return image;
}

uint32_t FirmwareImage::sram_bytes_used() const {
    uint32_t total = 0;
    for (const Segment& s : segments_) total += s.mem_size;
    return total;
}

bool FirmwareImage::find_symbol(const std::string& name, uint32_t& address) const {
    auto it = std::lower_bound(symbols_.begin(), symbols_.end(), name,
                               [](const auto& entry, const std::string& n) { return entry.first < n; });
    if (it == symbols_.end() || it->first != name) return false;
    address = it->second;
    return true;
}

}  // namespace niclab::fw
