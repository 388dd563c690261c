#pragma once
// Where built firmware images are, for a spec that names an image ("portals") rather
// than a path: NICLAB_FIRMWARE_DIR (as for the Python package), then this build's
// firmware tree. The Python package's firmware.resolve follows the same order.
#include <string>
#include <vector>

namespace niclab::gui {

std::vector<std::string> firmware_dirs();
// A path (anything with a '/') as it is; a name as the first <dir>/<name>.elf found.
// Throws InputError naming the image and the directories searched.
std::string resolve_firmware(const std::string& name_or_path);

}  // namespace niclab::gui
