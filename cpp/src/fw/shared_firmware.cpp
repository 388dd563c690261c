#include "niclab/fw/shared_firmware.hpp"

#include <map>
#include <mutex>
#include <tuple>

namespace niclab::fw {

namespace {

using Key = std::tuple<std::string, uintmax_t, std::filesystem::file_time_type::rep, uint32_t, uint32_t, uint32_t>;

struct Entry {
    std::weak_ptr<const FirmwareImage> image;
    std::weak_ptr<const Symbolizer> symbolizer;
};

}  // namespace

SharedFirmware load_shared(const std::filesystem::path& elf, const SramLayout& sram) {
    static std::mutex mutex;
    static std::map<Key, Entry> loaded;
    std::error_code ec;  // an unreadable path is FirmwareImage::load's to report
    const auto canonical = std::filesystem::weakly_canonical(elf, ec);
    const auto size = std::filesystem::file_size(elf, ec);
    const auto mtime = std::filesystem::last_write_time(elf, ec);
    if (ec) return {std::make_shared<const FirmwareImage>(FirmwareImage::load(elf, sram)),
                    std::make_shared<const Symbolizer>(elf, sram)};
    const Key key{canonical.string(), size, mtime.time_since_epoch().count(), sram.size, sram.cached_base,
                  sram.uncached_base};
    std::lock_guard lock(mutex);
    Entry& entry = loaded[key];
    SharedFirmware fw{entry.image.lock(), entry.symbolizer.lock()};
    if (fw.image && fw.symbolizer) return fw;
    fw.image = std::make_shared<const FirmwareImage>(FirmwareImage::load(elf, sram));
    fw.symbolizer = std::make_shared<const Symbolizer>(elf, sram);
    entry = {fw.image, fw.symbolizer};
    return fw;
}

}  // namespace niclab::fw
