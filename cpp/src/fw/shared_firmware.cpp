#include "niclab/fw/shared_firmware.hpp"

#include <sys/stat.h>

#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "niclab/sim/process_wide.hpp"

namespace niclab::fw {

namespace {

// The file by its path, size, inode and its modification and change times in nanoseconds:
// a tool may set a copy's modification time to the original's (cp -p, tar, rsync -t), but
// not its change time, so a file replaced by another build of the same size is read again.
using Key = std::tuple<std::string, int64_t, uint64_t, uint64_t, int64_t, int64_t, uint32_t, uint32_t, uint32_t>;

struct Entry {
    std::weak_ptr<const FirmwareImage> image;
    std::weak_ptr<const Symbolizer> symbolizer;
};

// The loaded images, behind a lock held only to look one up or note one: never across
// a load, which reads the file and its DWARF with elfutils (sim::process_wide: a fork
// waits a map lookup at most; a load another thread had under way is not in the child).
struct Loaded {
    std::mutex mutex;
    std::map<Key, Entry> entries;
    // The builds asked for last, held strongly, the latest last: the next system built
    // after one ends (a sweep's next point, a cell run again) finds its firmware read.
    std::vector<SharedFirmware> recent;
};
constexpr size_t kRecent = 2;

// Under the lock: fw, noted as the latest asked for.
SharedFirmware noted(Loaded& l, const SharedFirmware& fw) {
    std::erase_if(l.recent, [&](const SharedFirmware& r) { return r.image == fw.image; });
    l.recent.push_back(fw);
    if (l.recent.size() > kRecent) l.recent.erase(l.recent.begin());
    return fw;
}
Loaded& loaded() { return sim::process_wide<Loaded>(); }
[[maybe_unused]] const bool loaded_made = (loaded(), true);  // as the library loads (process_wide.hpp)

}  // namespace

SharedFirmware load_shared(const std::filesystem::path& elf, const SramLayout& sram) {
    std::error_code ec;  // an unreadable path is FirmwareImage::load's to report
    const auto canonical = std::filesystem::weakly_canonical(elf, ec);
    struct stat st {};
    if (ec || ::stat(elf.c_str(), &st) != 0)
        return {std::make_shared<const FirmwareImage>(FirmwareImage::load(elf, sram)),
                std::make_shared<const Symbolizer>(elf, sram)};
    const auto ns = [](const timespec& t) { return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec; };
    const Key key{canonical.string(), int64_t(st.st_size), uint64_t(st.st_dev), uint64_t(st.st_ino), ns(st.st_mtim),
                  ns(st.st_ctim), sram.size, sram.cached_base, sram.uncached_base};
    Loaded& l = loaded();
    {
        std::lock_guard lock(l.mutex);
        const Entry& entry = l.entries[key];
        SharedFirmware fw{entry.image.lock(), entry.symbolizer.lock()};
        if (fw.image && fw.symbolizer) return noted(l, fw);
    }
    SharedFirmware fw{std::make_shared<const FirmwareImage>(FirmwareImage::load(elf, sram)),
                      std::make_shared<const Symbolizer>(elf, sram)};
    std::lock_guard lock(l.mutex);
    Entry& entry = l.entries[key];
    // Two threads that loaded one file at once: the first noted is everyone's copy.
    if (SharedFirmware first{entry.image.lock(), entry.symbolizer.lock()}; first.image && first.symbolizer)
        return noted(l, first);
    entry = {fw.image, fw.symbolizer};
    return noted(l, fw);
}

}  // namespace niclab::fw
