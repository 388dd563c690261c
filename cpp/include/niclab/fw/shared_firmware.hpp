#pragma once
// A firmware file loaded once per process for every NIC that runs it. The image (the
// segments to copy into SRAM, the symbols) and the symbolizer (the DWARF line table)
// are immutable, so the 10,368 NICs of a Red Storm running one Portals build share one
// copy of each instead of holding 10,368. Keyed by the file's canonical path, size,
// inode, modification and change times (a rebuilt or replaced file is read again) and the
// SRAM layout it is checked against; held weakly, so a build no NIC runs any more is freed
// - but for the last two asked for, which stay, so that a system built after the last one
// ended reads nothing again.
#include <filesystem>
#include <memory>

#include "niclab/fw/firmware_image.hpp"
#include "niclab/fw/symbolizer.hpp"

namespace niclab::fw {

struct SharedFirmware {
    std::shared_ptr<const FirmwareImage> image;
    std::shared_ptr<const Symbolizer> symbolizer;
};

// Throws what FirmwareImage::load and Symbolizer throw, before anything is cached.
// Safe to call from several threads.
SharedFirmware load_shared(const std::filesystem::path& elf, const SramLayout& sram);

}  // namespace niclab::fw
