// FirmwareImage::load: the good firmware loads; each kind of broken copy of it is
// refused with the rule it breaks and a message naming the file and the segment.
#include <elf.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <optional>

#include "fw_test_support.hpp"
#include "niclab/fw/firmware_image.hpp"
#include "niclab/fw/hw.h"

namespace niclab::fw {
namespace {

using test::hello_elf;
using test::read_bytes;
using test::TempDir;

// The patches below write ELF fields with memcpy, which is only right on a
// little-endian host, as the RV32 images are little-endian.
static_assert(std::endian::native == std::endian::little);

// The good image as bytes, with accessors to patch its header fields in place.
class ElfBytes {
public:
    ElfBytes() : bytes_(read_bytes(hello_elf())) {}

    std::vector<uint8_t>& bytes() { return bytes_; }
    Elf32_Ehdr ehdr() const { return get<Elf32_Ehdr>(0); }
    void set_ehdr(const Elf32_Ehdr& h) { put(0, h); }
    unsigned phnum() const { return ehdr().e_phnum; }
    Elf32_Phdr phdr(unsigned i) const { return get<Elf32_Phdr>(phdr_offset(i)); }
    void set_phdr(unsigned i, const Elf32_Phdr& p) { put(phdr_offset(i), p); }

    // The PT_LOAD segment holding the entry point: the one every layout has.
    unsigned text_index() const {
        const uint32_t entry = ehdr().e_entry;
        for (unsigned i = 0; i < phnum(); ++i) {
            Elf32_Phdr p = phdr(i);
            if (p.p_type == PT_LOAD && (p.p_flags & PF_X) && entry >= p.p_vaddr && entry < p.p_vaddr + p.p_memsz)
                return i;
        }
        ADD_FAILURE() << "no executable PT_LOAD holds the entry point";
        return 0;
    }
    // Any other program header, to be rewritten as a second PT_LOAD.
    unsigned other_index() const { return text_index() == 0 ? 1 : 0; }

private:
    size_t phdr_offset(unsigned i) const { return ehdr().e_phoff + size_t{i} * sizeof(Elf32_Phdr); }
    template <class T>
    T get(size_t offset) const {
        T value;
        std::memcpy(&value, bytes_.data() + offset, sizeof value);
        return value;
    }
    template <class T>
    void put(size_t offset, const T& value) {
        std::memcpy(bytes_.data() + offset, &value, sizeof value);
    }
    std::vector<uint8_t> bytes_;
};

class FirmwareImageTest : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(std::filesystem::exists(hello_elf()))
            << hello_elf() << " is missing: the firmware build (ExternalProject 'firmware') makes it";
    }

    // Writes `bytes` to the temp dir, loads it and returns the error it raised.
    std::optional<FirmwareImageError> load_error(const std::vector<uint8_t>& bytes, const std::string& name) {
        return load_error(dir_.write(name, bytes));
    }
    std::optional<FirmwareImageError> load_error(const std::filesystem::path& path) {
        try {
            FirmwareImage::load(path);
        } catch (const FirmwareImageError& e) {
            EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos)
                << "message does not name the file: " << e.what();
            return e;
        }
        ADD_FAILURE() << path << " loaded but should have been refused";
        return std::nullopt;
    }

    static std::string seg(unsigned index) { return "segment " + std::to_string(index); }

    TempDir dir_;
    ElfBytes elf_;
};

#define EXPECT_RULE(err, expected_rule)                                     \
    do {                                                                    \
        ASSERT_TRUE(err.has_value());                                       \
        EXPECT_EQ(err->rule(), expected_rule) << "message: " << err->what(); \
    } while (0)
#define EXPECT_MENTIONS(err, text) \
    EXPECT_NE(std::string(err->what()).find(text), std::string::npos) << "message: " << err->what()

TEST_F(FirmwareImageTest, GoodImageLoads) {
    const FirmwareImage image = FirmwareImage::load(hello_elf());
    const SramLayout sram = default_sram_layout();
    EXPECT_EQ(image.path(), hello_elf());
    EXPECT_EQ(image.entry(), elf_.ehdr().e_entry);
    ASSERT_FALSE(image.segments().empty());

    bool entry_in_text = false;
    uint32_t used = 0;
    for (const Segment& s : image.segments()) {
        EXPECT_LE(s.bytes.size(), s.mem_size);
        EXPECT_LE(uint64_t{s.sram_offset} + s.mem_size, sram.size);
        const bool cached = s.vaddr - sram.cached_base == s.sram_offset && s.vaddr >= sram.cached_base;
        const bool uncached = s.vaddr - sram.uncached_base == s.sram_offset && s.vaddr >= sram.uncached_base;
        EXPECT_TRUE(cached || uncached) << seg(s.index);
        EXPECT_EQ(elf_.phdr(s.index).p_vaddr, s.vaddr) << "index is the program header index";
        if (s.executable && image.entry() >= s.vaddr && image.entry() - s.vaddr < s.bytes.size()) entry_in_text = true;
        used += s.mem_size;
    }
    EXPECT_TRUE(entry_in_text);
    EXPECT_EQ(image.sram_bytes_used(), used);

    uint32_t main_address = 0;
    ASSERT_TRUE(image.find_symbol("main", main_address));
    EXPECT_GE(main_address, sram.cached_base);
    uint32_t ignored = 0;
    EXPECT_FALSE(image.find_symbol("no_such_symbol_here", ignored));
}

TEST_F(FirmwareImageTest, BuildIdIsStableHex) {
    const std::string id = FirmwareImage::load(hello_elf()).build_id();
    ASSERT_FALSE(id.empty());
    EXPECT_EQ(FirmwareImage::load(dir_.write("copy.elf", elf_.bytes())).build_id(), id)
        << "the build id depends on the contents, not the path";
    const std::string digits = id.rfind("fnv:", 0) == 0 ? id.substr(4) : id;
    EXPECT_TRUE(std::all_of(digits.begin(), digits.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; })) << id;
}

TEST_F(FirmwareImageTest, BuildIdFallsBackToFileHash) {
    // Turn the NT_GNU_BUILD_ID note (namesz 4, type 3, "GNU\0") into another note type.
    auto& b = elf_.bytes();
    const uint8_t pattern[] = {3, 0, 0, 0, 'G', 'N', 'U', 0};
    auto it = std::search(b.begin(), b.end(), std::begin(pattern), std::end(pattern));
    if (it != b.end()) *it = 0x7f;
    const std::string id = FirmwareImage::load(dir_.write("no-build-id.elf", b)).build_id();
    EXPECT_EQ(id.rfind("fnv:", 0), 0u) << id;
    EXPECT_EQ(id.size(), 4u + 16u) << id;
    b[elf_.phdr(elf_.text_index()).p_offset] ^= 1;  // one bit of code: a different image
    EXPECT_NE(FirmwareImage::load(dir_.write("no-build-id-2.elf", b)).build_id(), id);
}

TEST_F(FirmwareImageTest, TruncatedInsideHeader) {
    auto b = elf_.bytes();
    b.resize(30);
    EXPECT_RULE(load_error(b, "cut-header.elf"), "not-elf");
}

TEST_F(FirmwareImageTest, TruncatedInsideProgramHeaders) {
    auto b = elf_.bytes();
    b.resize(elf_.ehdr().e_phoff + sizeof(Elf32_Phdr) / 2);
    auto err = load_error(b, "cut-phdrs.elf");
    EXPECT_RULE(err, "not-elf");
    EXPECT_MENTIONS(err, "program header");
}

TEST_F(FirmwareImageTest, TruncatedInsideSegmentData) {
    const unsigned text = elf_.text_index();
    const Elf32_Phdr p = elf_.phdr(text);
    ASSERT_GT(p.p_filesz, 1u);
    auto b = elf_.bytes();
    b.resize(p.p_offset + p.p_filesz / 2);
    auto err = load_error(b, "cut-segment.elf");
    EXPECT_RULE(err, "not-elf");
    EXPECT_MENTIONS(err, seg(text));
}

TEST_F(FirmwareImageTest, TruncatedAtEveryTenthByteIsRefusedCleanly) {
    // Whatever the cut, the loader refuses with a typed error, never crashes.
    const auto& good = elf_.bytes();
    for (size_t cut = 0; cut < good.size(); cut += std::max<size_t>(1, good.size() / 10)) {
        std::vector<uint8_t> b(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut));
        EXPECT_RULE(load_error(b, "cut-" + std::to_string(cut) + ".elf"), "not-elf");
    }
}

TEST_F(FirmwareImageTest, WrongClass) {
    elf_.bytes()[EI_CLASS] = ELFCLASS64;
    EXPECT_RULE(load_error(elf_.bytes(), "class64.elf"), "class");
}

TEST_F(FirmwareImageTest, WrongEndianness) {
    elf_.bytes()[EI_DATA] = ELFDATA2MSB;
    EXPECT_RULE(load_error(elf_.bytes(), "big-endian.elf"), "endianness");
}

TEST_F(FirmwareImageTest, WrongMachine) {
    Elf32_Ehdr h = elf_.ehdr();
    h.e_machine = EM_X86_64;
    elf_.set_ehdr(h);
    auto err = load_error(elf_.bytes(), "x86.elf");
    EXPECT_RULE(err, "machine");
    EXPECT_MENTIONS(err, std::to_string(EM_X86_64));
}

TEST_F(FirmwareImageTest, RelocatableObjectIsNotAnImage) {
    Elf32_Ehdr h = elf_.ehdr();
    h.e_type = ET_REL;
    elf_.set_ehdr(h);
    EXPECT_RULE(load_error(elf_.bytes(), "object.o"), "type");
}

TEST_F(FirmwareImageTest, NoProgramHeaders) {
    Elf32_Ehdr h = elf_.ehdr();
    h.e_phnum = 0;
    elf_.set_ehdr(h);
    EXPECT_RULE(load_error(elf_.bytes(), "no-phdrs.elf"), "no-segments");
}

TEST_F(FirmwareImageTest, SegmentOutsideSram) {
    const unsigned text = elf_.text_index();
    Elf32_Phdr p = elf_.phdr(text);
    p.p_vaddr = 0x80000000u;
    elf_.set_phdr(text, p);
    auto err = load_error(elf_.bytes(), "outside.elf");
    EXPECT_RULE(err, "segment-outside-sram");
    EXPECT_MENTIONS(err, seg(text));
    EXPECT_MENTIONS(err, "0x80000000");
}

TEST_F(FirmwareImageTest, SegmentStraddlingTheEndOfAView) {
    // Starts in the uncached view and runs into the cached one: in neither view whole.
    const SramLayout sram = default_sram_layout();
    const unsigned text = elf_.text_index();
    Elf32_Phdr p = elf_.phdr(text);
    p.p_vaddr = sram.cached_base - 4;
    elf_.set_phdr(text, p);
    auto err = load_error(elf_.bytes(), "straddle.elf");
    EXPECT_RULE(err, "segment-outside-sram");
    EXPECT_MENTIONS(err, seg(text));
}

TEST_F(FirmwareImageTest, SegmentsOverlapInTheSameView) {
    ASSERT_GE(elf_.phnum(), 2u) << "need a second program header to turn into an overlapping PT_LOAD";
    const unsigned text = elf_.text_index(), other = elf_.other_index();
    Elf32_Phdr p = elf_.phdr(text);
    p.p_vaddr += 4;
    p.p_flags = PF_R | PF_W;
    elf_.set_phdr(other, p);
    auto err = load_error(elf_.bytes(), "overlap.elf");
    EXPECT_RULE(err, "segment-overlap");
    EXPECT_MENTIONS(err, seg(text));
    EXPECT_MENTIONS(err, seg(other));
}

TEST_F(FirmwareImageTest, SegmentsOverlapThroughTheUncachedAlias) {
    // Different addresses, same SRAM bytes: the uncached view aliases the cached one.
    ASSERT_GE(elf_.phnum(), 2u);
    const SramLayout sram = default_sram_layout();
    const unsigned text = elf_.text_index(), other = elf_.other_index();
    Elf32_Phdr p = elf_.phdr(text);
    ASSERT_GE(p.p_vaddr, sram.cached_base);
    p.p_vaddr = p.p_vaddr - sram.cached_base + sram.uncached_base + 4;
    p.p_flags = PF_R | PF_W;
    elf_.set_phdr(other, p);
    auto err = load_error(elf_.bytes(), "alias-overlap.elf");
    EXPECT_RULE(err, "segment-overlap");
    EXPECT_MENTIONS(err, seg(text));
    EXPECT_MENTIONS(err, seg(other));
}

TEST_F(FirmwareImageTest, EntryOutsideText) {
    Elf32_Ehdr h = elf_.ehdr();
    h.e_entry = 0x00001000u;
    elf_.set_ehdr(h);
    auto err = load_error(elf_.bytes(), "entry.elf");
    EXPECT_RULE(err, "entry-not-in-text");
    EXPECT_MENTIONS(err, "0x1000");
}

TEST_F(FirmwareImageTest, EntryInNonExecutableSegment) {
    const unsigned text = elf_.text_index();
    Elf32_Phdr p = elf_.phdr(text);
    p.p_flags &= ~PF_X;
    elf_.set_phdr(text, p);
    EXPECT_RULE(load_error(elf_.bytes(), "entry-nx.elf"), "entry-not-in-text");
}

TEST_F(FirmwareImageTest, SegmentLargerThanSram) {
    const unsigned text = elf_.text_index();
    Elf32_Phdr p = elf_.phdr(text);
    p.p_memsz = NICLAB_SRAM_SIZE + 4;
    elf_.set_phdr(text, p);
    auto err = load_error(elf_.bytes(), "huge.elf");
    EXPECT_RULE(err, "too-large");
    EXPECT_MENTIONS(err, seg(text));
    EXPECT_MENTIONS(err, std::to_string(NICLAB_SRAM_SIZE));
}

TEST_F(FirmwareImageTest, FileSizeLargerThanMemorySize) {
    const unsigned text = elf_.text_index();
    Elf32_Phdr p = elf_.phdr(text);
    ASSERT_GE(p.p_filesz, 4u);
    p.p_memsz = p.p_filesz - 4;
    elf_.set_phdr(text, p);
    auto err = load_error(elf_.bytes(), "filesz.elf");
    EXPECT_RULE(err, "filesz-gt-memsz");
    EXPECT_MENTIONS(err, seg(text));
}

TEST_F(FirmwareImageTest, EmptyFile) {
    EXPECT_RULE(load_error({}, "empty.elf"), "not-elf");
}

TEST_F(FirmwareImageTest, TextFile) {
    const std::string text = "int main(void) { return 0; }\n";
    EXPECT_RULE(load_error(std::vector<uint8_t>(text.begin(), text.end()), "hello.c"), "not-elf");
}

TEST_F(FirmwareImageTest, NonexistentPath) {
    EXPECT_RULE(load_error(dir_.path() / "does-not-exist.elf"), "not-elf");
}

TEST_F(FirmwareImageTest, Directory) {
    EXPECT_RULE(load_error(dir_.path()), "not-elf");
}

TEST(SramLayoutTest, DefaultComesFromHwHeader) {
    const SramLayout sram = default_sram_layout();
    EXPECT_EQ(sram.size, 384u * 1024u);
    EXPECT_EQ(sram.cached_base, 0xFFFA0000u);
    EXPECT_EQ(sram.uncached_base, 0xFFF40000u);
}

}  // namespace
}  // namespace niclab::fw
