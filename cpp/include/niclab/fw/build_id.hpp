#pragma once
// A firmware ELF's identity (its GNU build id, or a hash of the file) without checking
// where its segments sit: a trace names the image that made it, and the image may be
// linked for any NIC's SRAM (the SeaStar's, the LANai's), which only the loader of that
// NIC can judge. Throws FirmwareImageError ("not-elf") for a file that is not ELF.
#include <filesystem>
#include <string>

namespace niclab::fw {

std::string elf_build_id(const std::filesystem::path& path);

}  // namespace niclab::fw
