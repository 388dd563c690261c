// Symbolizer: addresses of the good firmware resolve to function+offset and the
// hello.c line DWARF records; unknown addresses print as hex; both SRAM views agree.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>

#include "fw_test_support.hpp"
#include "niclab/fw/firmware_image.hpp"
#include "niclab/fw/symbolizer.hpp"

namespace niclab::fw {
namespace {

using test::hello_elf;

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

class SymbolizerTest : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(std::filesystem::exists(hello_elf())) << hello_elf() << " is missing: the firmware build makes it";
        symbolizer_.emplace(hello_elf());
        ASSERT_TRUE(FirmwareImage::load(hello_elf()).find_symbol("main", main_));
    }
    std::optional<Symbolizer> symbolizer_;
    uint32_t main_ = 0;
};

TEST_F(SymbolizerTest, FunctionStart) {
    const SourceLocation loc = symbolizer_->lookup(main_);
    EXPECT_EQ(loc.function, "main");
    EXPECT_EQ(loc.offset, 0u);
    EXPECT_EQ(loc.to_string(main_).rfind("main+0x0", 0), 0u) << loc.to_string(main_);
}

TEST_F(SymbolizerTest, InsideMainWithSourceLines) {
    // Walk main instruction by instruction: each address names main at its offset,
    // and main's own lines are in hello.c (others may come from inlined headers).
    bool saw_hello_c = false;
    uint32_t a = main_;
    for (; a - main_ < 4096; a += 4) {
        const SourceLocation loc = symbolizer_->lookup(a);
        if (loc.function != "main") break;
        EXPECT_EQ(loc.offset, a - main_);
        if (ends_with(loc.file, "hello.c")) {
            saw_hello_c = true;
            EXPECT_GT(loc.line, 0);
            EXPECT_TRUE(ends_with(loc.path, "hello.c")) << loc.path;
            EXPECT_NE(loc.to_string(a).find("(hello.c:" + std::to_string(loc.line) + ")"), std::string::npos)
                << loc.to_string(a);
        }
    }
    EXPECT_GT(a, main_ + 4) << "main should be more than one instruction";
    EXPECT_TRUE(saw_hello_c);
}

TEST_F(SymbolizerTest, EntryPointHasAName) {
    const FirmwareImage image = FirmwareImage::load(hello_elf());
    const SourceLocation loc = symbolizer_->lookup(image.entry());
    EXPECT_FALSE(loc.function.empty()) << "crt0's _start";
}

TEST_F(SymbolizerTest, UnknownAddressesPrintAsHex) {
    for (uint32_t a : {0x00001000u, 0xF0000008u}) {
        const SourceLocation loc = symbolizer_->lookup(a);
        EXPECT_TRUE(loc.function.empty());
        EXPECT_TRUE(loc.file.empty());
        char expected[16];
        std::snprintf(expected, sizeof expected, "0x%08x", a);
        EXPECT_EQ(loc.to_string(a), expected);
    }
}

TEST_F(SymbolizerTest, UncachedAliasResolvesLikeTheCachedAddress) {
    const SramLayout sram = default_sram_layout();
    ASSERT_GE(main_, sram.cached_base);
    for (uint32_t off : {0u, 4u}) {
        const uint32_t cached = main_ + off;
        const uint32_t uncached = cached - sram.cached_base + sram.uncached_base;
        const SourceLocation a = symbolizer_->lookup(cached);
        const SourceLocation b = symbolizer_->lookup(uncached);
        EXPECT_EQ(b.function, a.function);
        EXPECT_EQ(b.offset, a.offset);
        EXPECT_EQ(b.file, a.file);
        EXPECT_EQ(b.line, a.line);
    }
}

TEST_F(SymbolizerTest, MovedSymbolizerStillWorks) {
    Symbolizer moved(std::move(*symbolizer_));
    EXPECT_EQ(moved.lookup(main_).function, "main");
    Symbolizer other(hello_elf());
    other = std::move(moved);
    EXPECT_EQ(other.lookup(main_).function, "main");
}

TEST(SymbolizerErrors, RefusesWhatIsNotAnElf) {
    try {
        Symbolizer s("/nonexistent/firmware.elf");
        FAIL() << "expected FirmwareImageError";
    } catch (const FirmwareImageError& e) {
        EXPECT_EQ(e.rule(), "not-elf");
        EXPECT_NE(std::string(e.what()).find("/nonexistent/firmware.elf"), std::string::npos);
    }
}

TEST(SourceLocationFormat, Forms) {
    EXPECT_EQ((SourceLocation{"main", 0x14, "hello.c", "/src/hello.c", 42}.to_string(0xfffb0010)),
              "main+0x14 (hello.c:42)");
    EXPECT_EQ((SourceLocation{"main", 0x14, "", "", 0}.to_string(0xfffb0010)), "main+0x14");
    EXPECT_EQ(SourceLocation{}.to_string(0xfffb0010), "0xfffb0010");
}

}  // namespace
}  // namespace niclab::fw
