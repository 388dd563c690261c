#include "model/firmware_images.hpp"

#include <cstdlib>
#include <filesystem>

#include "model/input_error.hpp"

namespace niclab::gui {

std::vector<std::string> firmware_dirs() {
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("NICLAB_FIRMWARE_DIR"); env && *env)
        for (const char* sub : {"/examples", "/portals", "/grim", ""}) dirs.push_back(std::string(env) + sub);
    for (const char* sub : {"/examples", "/portals", "/grim"}) dirs.push_back(std::string(NICLAB_BUILD_FIRMWARE_DIR) + sub);
    return dirs;
}

std::string resolve_firmware(const std::string& name) {
    namespace fs = std::filesystem;
    if (name.find('/') != std::string::npos) {
        if (!fs::is_regular_file(name)) throw InputError("firmware '" + name + "': no such file");
        return name;
    }
    const std::string file = name.size() > 4 && name.ends_with(".elf") ? name : name + ".elf";
    std::string searched;
    for (const auto& d : firmware_dirs()) {
        if (fs::is_regular_file(d + "/" + file)) return d + "/" + file;
        searched += (searched.empty() ? "" : ", ") + d;
    }
    throw InputError("firmware '" + name + "': no built image of that name (searched " + searched + ")");
}

}  // namespace niclab::gui
