#include "model/firmware_build.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include "model/input_error.hpp"

namespace niclab::gui {

namespace fs = std::filesystem;

namespace {

std::string find_cmake() {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');)
        if (!d.empty() && fs::is_regular_file(fs::path(d) / "cmake")) return (fs::path(d) / "cmake").string();
    throw InputError("cmake is not installed: the firmware SDK needs cmake, ninja and Debian's gcc-riscv64-unknown-elf");
}

}  // namespace

FirmwareBuildPlan plan_firmware_build(const FirmwareBuildRequest& r) {
    if (r.source.empty()) throw InputError("firmware source: choose a C file to build");
    const fs::path source = fs::absolute(r.source);
    if (!fs::is_regular_file(source)) throw InputError("firmware source '" + r.source + "': no such file");
    FirmwareBuildPlan p;
    // Image names are C identifiers (the SDK's target names); the file's stem made one.
    p.name = source.stem().string();
    for (char& c : p.name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
    if (p.name.empty() || std::isdigit(static_cast<unsigned char>(p.name[0]))) p.name = "fw_" + p.name;
    const fs::path out = source.parent_path();
    p.elf = (out / (p.name + ".elf")).string();
    p.size_report = (out / (p.name + ".size.txt")).string();
    p.program = find_cmake();
    p.args = {"-DNAME=" + p.name, "-DSOURCES=" + source.string(), "-DOUT_DIR=" + out.string(),
              std::string("-DTRACE=") + (r.trace ? "ON" : "OFF"), "-P",
              std::string(NICLAB_SOURCE_DIR) + "/firmware/sdk/build_firmware.cmake"};
    return p;
}

std::vector<CompilerMessage> compiler_errors(const std::string& log) {
    // gcc: "file:line:col: error: ..." (or "fatal error"); ld: "file:line: undefined reference".
    static const std::regex compiler(R"(^(.+?):(\d+):(?:\d+:)?\s*(?:fatal error|error):.*)");
    static const std::regex linker(R"(^(.+?):(\d+):.*undefined reference.*)");
    std::vector<CompilerMessage> out;
    std::stringstream lines(log);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_match(line, m, compiler) || std::regex_match(line, m, linker))
            out.push_back({m[1].str(), int(std::strtol(m[2].str().c_str(), nullptr, 10)), line});
    }
    return out;
}

}  // namespace niclab::gui
