#include "elf_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "niclab/fw/firmware_image.hpp"

namespace niclab::fw::detail {
namespace {

// Closes the descriptor on every path out of read_file, including throws.
class UniqueFd {
public:
    explicit UniqueFd(int fd) : fd_(fd) {}
    ~UniqueFd() {
        if (fd_ >= 0) ::close(fd_);
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

[[noreturn]] void not_elf(const std::filesystem::path& path, const std::string& what) {
    throw FirmwareImageError("not-elf", path.string() + ": " + what);
}

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) not_elf(path, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) not_elf(path, std::string("cannot stat: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) not_elf(path, "not a regular file");

    std::vector<uint8_t> bytes(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) not_elf(path, std::string("cannot read: ") + std::strerror(errno));
        if (n == 0) break;  // the file shrank under us: judge what we got
        done += static_cast<size_t>(n);
    }
    bytes.resize(done);
    return bytes;
}

bool libelf_ready() {
    // elf_version must precede any other libelf call, once per process.
    static const bool ready = elf_version(EV_CURRENT) != EV_NONE;
    return ready;
}

std::string libelf_error() { return elf_errmsg(-1); }

}  // namespace

void ElfFile::fail_not_elf(const std::string& what) const { not_elf(path_, what); }

ElfFile ElfFile::open(const std::filesystem::path& path) {
    ElfFile file;
    file.path_ = path;
    file.bytes_ = read_file(path);
    const auto& b = file.bytes_;

    if (b.empty()) file.fail_not_elf("empty file");
    if (b.size() < EI_NIDENT || std::memcmp(b.data(), ELFMAG, SELFMAG) != 0)
        file.fail_not_elf("not an ELF file (no \\x7fELF magic)");
    // Class and byte order come from e_ident before libelf parses anything: a
    // 32-bit file with a patched class would otherwise be misread as 64-bit.
    if (b[EI_CLASS] != ELFCLASS32)
        throw FirmwareImageError("class", path.string() + ": ELF class " + std::to_string(b[EI_CLASS]) +
                                              ", the NIC core needs ELFCLASS32 (1)");
    if (b[EI_DATA] != ELFDATA2LSB)
        throw FirmwareImageError("endianness", path.string() + ": ELF data encoding " +
                                                   std::to_string(b[EI_DATA]) +
                                                   ", the NIC core needs little-endian (ELFDATA2LSB, 1)");
    if (b.size() < sizeof(Elf32_Ehdr))
        file.fail_not_elf("truncated: " + std::to_string(b.size()) + " bytes, shorter than the " +
                          std::to_string(sizeof(Elf32_Ehdr)) + "-byte ELF header");

    if (!libelf_ready()) file.fail_not_elf("libelf version mismatch: " + libelf_error());
    file.elf_.reset(elf_memory(reinterpret_cast<char*>(file.bytes_.data()), file.bytes_.size()));
    if (!file.elf_ || elf_kind(file.elf_.get()) != ELF_K_ELF)
        file.fail_not_elf("libelf cannot parse it: " + libelf_error());
    if (gelf_getehdr(file.elf_.get(), &file.header_) == nullptr)
        file.fail_not_elf("unreadable ELF header: " + libelf_error());
    return file;
}

std::vector<ElfSymbol> read_symbols(const ElfFile& file) {
    Elf* elf = file.elf();
    const GElf_Ehdr& eh = file.header();
    // libelf trusts e_shoff blindly; a file cut inside its section header table
    // would otherwise yield garbage sections.
    if (eh.e_shoff != 0) {
        uint64_t count = eh.e_shnum != 0 ? eh.e_shnum : 1;  // 0: extended count lives in section 0
        if (!file.in_file(eh.e_shoff, count * eh.e_shentsize))
            file.fail_not_elf("truncated: section header table at file offset " + std::to_string(eh.e_shoff) +
                              " extends beyond the end of the file (" + std::to_string(file.bytes().size()) +
                              " bytes)");
    }

    std::vector<ElfSymbol> symbols;
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn != nullptr; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == nullptr || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0) continue;
        GElf_Shdr strtab;
        Elf_Scn* str_scn = elf_getscn(elf, sh.sh_link);
        if (!file.in_file(sh.sh_offset, sh.sh_size) || str_scn == nullptr ||
            gelf_getshdr(str_scn, &strtab) == nullptr || !file.in_file(strtab.sh_offset, strtab.sh_size))
            file.fail_not_elf("truncated: .symtab or its string table extends beyond the end of the file");
        Elf_Data* data = elf_getdata(scn, nullptr);
        if (data == nullptr) file.fail_not_elf("unreadable .symtab: " + libelf_error());

        const size_t count = sh.sh_size / sh.sh_entsize;
        for (size_t i = 1; i < count; ++i) {
            GElf_Sym sym;
            if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) continue;
            const unsigned char type = GELF_ST_TYPE(sym.st_info);
            if (type == STT_SECTION || type == STT_FILE) continue;
            if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE) continue;
            const char* name = elf_strptr(elf, sh.sh_link, sym.st_name);
            if (name == nullptr || name[0] == '\0' || name[0] == '$') continue;
            GElf_Shdr home;
            Elf_Scn* home_scn = elf_getscn(elf, sym.st_shndx);
            if (home_scn == nullptr || gelf_getshdr(home_scn, &home) == nullptr || !(home.sh_flags & SHF_ALLOC))
                continue;
            symbols.push_back(ElfSymbol{name, static_cast<uint32_t>(sym.st_value), static_cast<uint32_t>(sym.st_size),
                                        type, static_cast<unsigned char>(GELF_ST_BIND(sym.st_info)),
                                        home.sh_addr + home.sh_size});
        }
    }
    return symbols;
}

}  // namespace niclab::fw::detail
