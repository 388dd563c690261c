// load_shared: NICs running one firmware file share one loaded image and symbolizer;
// a rebuilt file is read again, and a broken one is refused as FirmwareImage refuses it.
#include <chrono>

#include "fw_test_support.hpp"
#include "niclab/fw/shared_firmware.hpp"
#include "test_fork.hpp"

namespace niclab::fw {
namespace {

using test::hello_elf;
using test::read_bytes;
using test::TempDir;

TEST(SharedFirmware, OneFileOneCopy) {
    SharedFirmware a = load_shared(hello_elf(), default_sram_layout());
    SharedFirmware b = load_shared(hello_elf(), default_sram_layout());
    EXPECT_EQ(a.image.get(), b.image.get());
    EXPECT_EQ(a.symbolizer.get(), b.symbolizer.get());
    EXPECT_EQ(a.image->entry(), FirmwareImage::load(hello_elf(), default_sram_layout()).entry());
}

TEST(SharedFirmware, ARebuiltFileIsReadAgain) {
    TempDir dir;
    const auto elf = dir.write("fw.elf", read_bytes(hello_elf()));
    SharedFirmware before = load_shared(elf, default_sram_layout());
    // The same bytes written again with a later modification time: a rebuild.
    std::filesystem::last_write_time(elf, std::filesystem::last_write_time(elf) + std::chrono::seconds(2));
    SharedFirmware after = load_shared(elf, default_sram_layout());
    EXPECT_NE(before.image.get(), after.image.get());
    EXPECT_EQ(before.image->entry(), after.image->entry());
}

TEST(SharedFirmware, ABrokenFileIsRefusedAndNotCached) {
    TempDir dir;
    const auto elf = dir.write("broken.elf", {0x7f, 'E', 'L', 'F', 1});
    EXPECT_THROW(load_shared(elf, default_sram_layout()), FirmwareImageError);
    EXPECT_THROW(load_shared(elf, default_sram_layout()), FirmwareImageError);
    EXPECT_THROW(load_shared(dir.path() / "missing.elf", default_sram_layout()), FirmwareImageError);
}

// A fork while another thread loads firmware (a system may be building on a thread of
// its own) leaves the child able to load.
TEST(SharedFirmware, AForkWhileAnotherThreadLoadsLeavesTheChildAbleToLoad) {
    const auto seen = niclab::test::fork_while_busy(
        50, 2, [] { load_shared(hello_elf(), default_sram_layout()); },  // dropped: each is a fresh load
        [] { return load_shared(hello_elf(), default_sram_layout()).image ? 0 : 1; });
    EXPECT_EQ(seen.stuck, 0) << "a forked child could not load (fork " << seen.forks << " of 50)";
}

}  // namespace
}  // namespace niclab::fw
