// load_shared: NICs running one firmware file share one loaded image and symbolizer;
// a rebuilt file is read again, and a broken one is refused as FirmwareImage refuses it.
#include <chrono>

#include "fw_test_support.hpp"
#include "niclab/fw/shared_firmware.hpp"

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

}  // namespace
}  // namespace niclab::fw
