// load_shared: NICs running one firmware file share one loaded image and symbolizer;
// a rebuilt file is read again, and a broken one is refused as FirmwareImage refuses it.
#include <chrono>
#include <thread>
#include <vector>

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

// The last two builds asked for stay loaded when no NIC runs them (a system built after the
// last one ended reads nothing again); an older one is freed.
TEST(SharedFirmware, TheLastTwoAskedForStayWhenNothingRunsThem) {
    TempDir dir;
    std::vector<std::filesystem::path> elf;
    for (const char* name : {"a.elf", "b.elf", "c.elf"}) elf.push_back(dir.write(name, read_bytes(hello_elf())));
    const std::weak_ptr<const FirmwareImage> a = load_shared(elf[0], default_sram_layout()).image;
    const std::weak_ptr<const Symbolizer> a_lines = load_shared(elf[0], default_sram_layout()).symbolizer;
    const std::weak_ptr<const FirmwareImage> b = load_shared(elf[1], default_sram_layout()).image;
    EXPECT_FALSE(a.expired());
    EXPECT_FALSE(a_lines.expired());
    EXPECT_EQ(load_shared(elf[0], default_sram_layout()).image, a.lock()) << "read again while kept";
    load_shared(elf[2], default_sram_layout());  // a asked for after b: b goes
    EXPECT_TRUE(b.expired());
    EXPECT_FALSE(a.expired());
}

// Another build of the same size put in its place with the old modification time (cp -p,
// tar, rsync -t), while the old one is still loaded: read again, by the change time.
TEST(SharedFirmware, AFileReplacedWithItsModificationTimeKeptIsReadAgain) {
    TempDir dir;
    const auto elf = dir.write("fw.elf", read_bytes(hello_elf()));
    const auto mtime = std::filesystem::last_write_time(elf);
    SharedFirmware before = load_shared(elf, default_sram_layout());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the clock's tick
    dir.write("fw.elf", read_bytes(hello_elf()));
    std::filesystem::last_write_time(elf, mtime);
    SharedFirmware after = load_shared(elf, default_sram_layout());
    EXPECT_NE(before.image.get(), after.image.get());
}

TEST(SharedFirmware, ABrokenFileIsRefusedAndNotCached) {
    TempDir dir;
    const auto elf = dir.write("broken.elf", {0x7f, 'E', 'L', 'F', 1});
    EXPECT_THROW(load_shared(elf, default_sram_layout()), FirmwareImageError);
    EXPECT_THROW(load_shared(elf, default_sram_layout()), FirmwareImageError);
    EXPECT_THROW(load_shared(dir.path() / "missing.elf", default_sram_layout()), FirmwareImageError);
}

// Loads run outside the lock, so threads may load one file at once: all of them still
// get one copy, the first noted.
TEST(SharedFirmware, ThreadsLoadingOneFileAtOnceShareOneCopy) {
    TempDir dir;
    const auto elf = dir.write("fw.elf", read_bytes(hello_elf()));
    std::vector<SharedFirmware> got(4);
    std::vector<std::thread> threads;
    for (auto& fw : got) threads.emplace_back([&] { fw = load_shared(elf, default_sram_layout()); });
    for (auto& t : threads) t.join();
    for (const auto& fw : got) {
        EXPECT_EQ(fw.image.get(), got[0].image.get());
        EXPECT_EQ(fw.symbolizer.get(), got[0].symbolizer.get());
    }
}

// A fork while another thread looks images up (a system building on a thread of its own,
// as a sweep forks its workers) leaves the child able to look them up: the lock is not
// inherited held. The child's lookup finds the image the parent holds, so it reads no
// file: a child that does not exit within its alarm waited on the lock.
TEST(SharedFirmware, AForkWhileAnotherThreadLooksUpLeavesTheChildAbleToLookUp) {
    const SharedFirmware held = load_shared(hello_elf(), default_sram_layout());
    const auto seen = niclab::test::fork_while_busy(
        2000, 10, [] { load_shared(hello_elf(), default_sram_layout()); },
        [&] { return load_shared(hello_elf(), default_sram_layout()).image == held.image ? 0 : 1; });
    EXPECT_EQ(seen.stuck, 0) << "a forked child could not look its image up (fork " << seen.forks << " of 2000)";
}

}  // namespace
}  // namespace niclab::fw
